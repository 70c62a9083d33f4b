import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 6: silent refresh while active, unlocking again after inactivity; logout.
@Suite("Sessions: current session, refresh, inactivity, logout")
struct SessionTests {
    @Test("the kept session is returned while its access token is fresh, without asking the server")
    func currentSessionWhileFresh() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            let session = try await client.login(prompt: "Log in")
            let sent = transport.requests.count
            #expect(try await client.currentSession() == session)
            #expect(transport.requests.count == sent)
        }
    }

    @Test("an access token about to expire is refreshed silently by currentSession")
    func currentSessionRefreshesStaleToken() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile))
            try await profile.keyStore.setSession(
                StoredSession(session: registered, receivedAt: Date(timeIntervalSinceNow: -3600)),
                clientId: LiveServer.demoApp)
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            let current = try await client.currentSession()
            #expect(current.refreshToken != registered.refreshToken)
            #expect(current.userId == registered.userId)
            #expect(transport.requests == ["POST /v1/sessions/refresh"])
        }
    }

    @Test("a silent refresh, signed by the device key, rotates both tokens of the same session")
    func refreshRotates() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let first = try await server.register(client)
            let refreshed = try await client.refresh()
            #expect(refreshed.refreshToken != first.refreshToken)
            #expect(refreshed.accessToken != first.accessToken)
            #expect(refreshed.amr == first.amr)
            #expect(refreshed.deviceId == first.deviceId)
            #expect(try jwtClaims(refreshed.accessToken)["sid"] as? String == jwtClaims(first.accessToken)["sid"] as? String)
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp)?.session == refreshed)
            #expect(try await client.currentSession() == refreshed)
        }
    }

    @Test("a rotated refresh token used again ends the whole session: reauthenticationRequired, session forgotten")
    func reusedRefreshToken() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let first = try await server.register(client)
            let refreshed = try await client.refresh()
            try await profile.keyStore.setSession(StoredSession(session: first, receivedAt: Date()), clientId: LiveServer.demoApp)
            await expectError(.reauthenticationRequired) { try await client.refresh() }
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp) == nil)
            // The newer token of the family is dead too.
            try await profile.keyStore.setSession(
                StoredSession(session: refreshed, receivedAt: Date()), clientId: LiveServer.demoApp)
            await expectError(.reauthenticationRequired) { try await client.refresh() }
            #expect(try await server.sessionRecord(refreshed).revokedAt != nil)
        }
    }

    // The server's clock moves forward instead of the test sleeping. Each step leaves seconds of slack for a loaded
    // machine, and the total stays under the 60 s lifetime of the device's signed tokens (stamped with the real
    // time), so only the session rules can refuse.

    @Test("a session idle past the app's inactivity timeout needs unlocking; activity keeps it alive")
    func inactivityTimeout() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.quick") { $0.inactivityTimeoutSeconds = 20 }
            let profile = server.profile()
            let client = server.client(profile, clientID: "com.example.quick")
            try await server.register(client)
            server.clock.advance(by: 8)
            try await client.refresh()
            server.clock.advance(by: 8)  // 16 s since the login, 8 s since the last activity
            try await client.refresh()
            server.clock.advance(by: 21)
            await expectError(.reauthenticationRequired) { try await client.refresh() }
            #expect(try await profile.keyStore.session(clientId: "com.example.quick") == nil)
            await expectError(.reauthenticationRequired) { try await client.currentSession() }
            // Unlocking with the fingerprint starts a new session that refreshes again.
            let unlocked = try await client.login(prompt: "Unlock")
            #expect(unlocked.amr == ["bio"])
            #expect(try await client.refresh().userId == unlocked.userId)
        }
    }

    @Test("a session older than the app's maximum lifetime needs unlocking, however active")
    func maximumLifetime() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.short") { $0.sessionMaxLifetimeSeconds = 30 }
            let profile = server.profile()
            let client = server.client(profile, clientID: "com.example.short")
            try await server.register(client)
            server.clock.advance(by: 12)
            try await client.refresh()
            server.clock.advance(by: 20)
            await expectError(.reauthenticationRequired) { try await client.refresh() }
            #expect(try await profile.keyStore.session(clientId: "com.example.short") == nil)
        }
    }

    @Test("refresh with no kept session: reauthenticationRequired, nothing sent")
    func refreshWithoutSession() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            try await profile.keyStore.setSession(nil, clientId: LiveServer.demoApp)
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            await expectError(.reauthenticationRequired) { try await client.refresh() }
            await expectError(.reauthenticationRequired) { try await client.currentSession() }
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("refresh on an empty profile: notRegistered")
    func refreshNotRegistered() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            await expectError(.notRegistered) { try await client.refresh() }
        }
    }

    @Test("logout ends the session on the server and forgets it here")
    func logout() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            try await server.register(client)
            let session = try await client.login(prompt: "Log in")
            try await client.logout()
            #expect(try await server.sessionRecord(session).revokedAt != nil)
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp) == nil)
            await expectError(.reauthenticationRequired) { try await client.currentSession() }
            #expect(try await client.status().registered)
        }
    }

    @Test("logout without a session sends nothing")
    func logoutWithoutSession() async throws {
        try await LiveServer.run { server in
            let transport = server.recorder()
            let client = server.client(server.profile(), transport: transport)
            try await client.logout()
            #expect(transport.requests.isEmpty)
            #expect(try await client.status().registered == false)
        }
    }

    @Test("logout of a session the server already ended still forgets it here")
    func logoutAfterServerEnded() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let session = try await server.register(client)
            try await server.store.revokeSession(id: try server.sessionRecord(session).id, reason: "test", at: Date())
            try await client.logout()
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp) == nil)
        }
    }
}
