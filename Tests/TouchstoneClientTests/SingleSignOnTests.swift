import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 12: apps of one publisher that share a key store share one registration.
@Suite("Single sign-on across a publisher's apps")
struct SingleSignOnTests {
    @Test("a second app of the same publisher on the same profile logs in without registering")
    func secondAppLogsIn() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.pay")
            let profile = server.profile()
            let registered = try await server.register(server.client(profile))
            let transport = server.recorder()
            let pay = server.client(profile, clientID: "com.example.pay", transport: transport)
            let status = try await pay.status()
            #expect(status.registered)
            #expect(status.clientId == "com.example.pay")
            #expect(status.deviceId == registered.deviceId)
            #expect(await pay.availability() == .available(.fingerprint))
            let session = try await pay.login(prompt: "Log in to Pay")
            #expect(session.amr == ["bio"])
            #expect(session.deviceId == registered.deviceId)
            #expect(try jwtClaims(session.accessToken)["aud"] as? String == "com.example.pay")
            #expect(try await pay.login(pin: LiveServer.pin).amr == ["pin"])
            #expect(!transport.requests.contains { $0.contains("/v1/enrollments") })
        }
    }

    @Test("each app keeps its own session on the shared profile")
    func sessionsPerApp() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.pay")
            let profile = server.profile()
            let demo = server.client(profile)
            try await server.register(demo)
            let pay = server.client(profile, clientID: "com.example.pay")
            let demoSession = try await demo.login(prompt: "Log in")
            let paySession = try await pay.login(prompt: "Log in to Pay")
            try await pay.logout()
            #expect(try await profile.keyStore.session(clientId: "com.example.pay") == nil)
            #expect(try await demo.currentSession() == demoSession)
            #expect(try await server.sessionRecord(paySession).revokedAt != nil)
            #expect(try await server.sessionRecord(demoSession).revokedAt == nil)
        }
    }

    @Test("an app of another publisher on the same profile: server(app_not_in_publisher), registration kept")
    func otherPublisher() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.other.app", publisher: "other")
            let profile = server.profile()
            try await server.register(server.client(profile))
            let other = server.client(profile, clientID: "com.other.app")
            await expectError(.server, serverCode: .appNotInPublisher) { try await other.login(prompt: "Log in") }
            await expectError(.server, serverCode: .appNotInPublisher) { try await other.login(pin: LiveServer.pin) }
            #expect(try await other.status().registered)
            #expect(try await server.client(profile).login(prompt: "Log in").amr == ["bio"])
        }
    }
}
