import Crypto
import Foundation
import JWTKit
import Logging
import Synchronization
import Testing
import TouchstoneProtocol
import TouchstoneStorage
import TouchstoneTestSupport
import _CryptoExtras

@testable import TouchstoneDelivery

/// Keys, credentials and pushes of the delivery tests, and the clients under test pointed at a ``PushTestServer``.
enum PushFixture {
    static let apnsKey = P256.Signing.PrivateKey()
    static let rsaKey = Result { try _RSA.Signing.PrivateKey(keySize: .bits2048) }
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let topic = "com.example.pay"

    static let apns = APNsCredentials(
        keyPEM: apnsKey.pemRepresentation, keyId: "KEY1234567", teamId: "TEAM123456", topics: [topic])

    /// A Google service account whose `token_uri` is `tokenURI`, with the fixture's RSA key as PKCS#8 PEM.
    static func serviceAccount(tokenURI: String) throws -> FCMServiceAccount {
        FCMServiceAccount(
            projectId: "touchstone-test", clientEmail: "push@touchstone-test.iam.gserviceaccount.com",
            privateKeyId: "f0e1d2c3b4a5", privateKeyPEM: try rsaKey.get().pkcs8PEMRepresentation, tokenURI: tokenURI)
    }

    /// An APNs device token (64 hex digits) numbered `n`.
    static func apnsToken(_ n: Int) -> String {
        String(repeating: "0", count: 56) + String(format: "%08x", n)
    }

    /// A push of the item `itm_<kind>` for `dev_1`, expiring 300.5 s after ``start``.
    static func push(
        provider: PushProvider, token: String, kind: InboxItemKind = .confirmation, event: SecurityEvent? = nil,
        environment: APNsEnvironment = .production, topic: String? = PushFixture.topic
    ) -> QueuedPush {
        QueuedPush(
            id: "psh_1", reference: PushReference(kind: kind, id: "itm_" + kind.rawValue, deviceId: "dev_1", event: event),
            clientId: "pay",
            registration: PushRegistration(
                deviceId: "dev_1", provider: provider, token: token, topic: provider == .apns ? topic : nil,
                environment: provider == .apns ? environment : nil, registeredAt: start),
            expiresAt: start.addingTimeInterval(300.5), attempts: 0)
    }

    /// Runs `body` with clients that trust the server's CA and send both providers' pushes to it; shuts them down.
    static func withClients<T>(
        _ server: PushTestServer, clock: TestClock, answerTimeout: Duration = .seconds(10), logger: Logger = quiet,
        endpoints: PushEndpoints? = nil, _ body: (PushClients) async throws -> T
    ) async throws -> T {
        let clients = PushClients(
            endpoints: try endpoints
                ?? PushEndpoints(
                    insecureAPNsURL: server.url, insecureFCMURL: server.url, insecureTrustRootsPEM: server.caPEM()),
            logger: logger, clock: { clock.now() }, answerTimeout: answerTimeout)
        do {
            let result = try await body(clients)
            try await clients.shutdown()
            return result
        } catch {
            try await clients.shutdown()
            throw error
        }
    }

    static let quiet = Logger(label: "push-tests") { _ in SwiftLogNoOpLogHandler() }

    /// A compact JWS's header as JSON.
    static func header(_ jwt: String) throws -> [String: String] {
        let part = try #require(jwt.split(separator: ".").first.flatMap { Base64URL.decode(String($0)) })
        return try #require(try JSONSerialization.jsonObject(with: part) as? [String: String])
    }

    /// A compact JWS's claims as JSON.
    static func claims(_ jwt: String) throws -> [String: Any] {
        let parts = jwt.split(separator: ".")
        let part = try #require(parts.count == 3 ? Base64URL.decode(String(parts[1])) : nil)
        return try #require(try JSONSerialization.jsonObject(with: part) as? [String: Any])
    }
}

/// A clock that only moves when told to.
final class TestClock: Sendable {
    private let current = Mutex(PushFixture.start)

    func now() -> Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}
