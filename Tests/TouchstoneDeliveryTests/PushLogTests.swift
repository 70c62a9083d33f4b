import Foundation
import Logging
import Testing
import TouchstoneProtocol
import TouchstoneStorage
import TouchstoneTestSupport

@testable import TouchstoneDelivery

/// What the clients log of a push that did not go through: its id, provider and the service's reason, never the
/// device token or a credential.
@Suite struct PushLogTests {
    @Test func aRefusedPushIsLoggedWithItsReasonAndNeverItsTokenOrCredentials() async throws {
        let gone = PushFixture.apnsToken(20)
        let refused = PushFixture.apnsToken(21)
        try await withPushTestServer(behaviours: [gone: .unregistered, refused: .badTopic, "fcm:down": .down]) { server in
            let lines = RecordingLogHandler.Lines()
            let logger = Logger(label: "push-tests") { _ in RecordingLogHandler(lines: lines) }
            let account = try PushFixture.serviceAccount(tokenURI: server.tokenURI())
            try await PushFixture.withClients(server, clock: TestClock(), logger: logger) { clients in
                let apns = PushCredentials(apns: PushFixture.apns)
                _ = await clients.send(PushFixture.push(provider: .apns, token: gone), credentials: apns)
                _ = await clients.send(PushFixture.push(provider: .apns, token: refused), credentials: apns)
                _ = await clients.send(PushFixture.push(provider: .fcm, token: "fcm:down"), credentials: PushCredentials(fcm: account))
            }
            let logged = lines.all.joined(separator: "\n")
            for expected in ["push token unregistered", "Unregistered", "push failed", "BadTopic", "push to be retried", "UNAVAILABLE", "psh_1"] {
                #expect(logged.contains(expected), "\(expected) in \(logged)")
            }
            let recorded = try server.recorded()
            let providerToken = try #require(recorded.first?.headers["authorization"]).dropFirst("bearer ".count)
            for secret in [gone, refused, "fcm:down", String(providerToken), "ya29.test-1", "BEGIN PRIVATE KEY"] {
                #expect(!logged.contains(secret), "\(secret) logged")
            }
        }
    }
}
