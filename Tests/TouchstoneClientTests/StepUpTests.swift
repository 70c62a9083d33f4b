import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Stories 5 and 7: privileged actions need the password again (step-up); a new PIN, also for a locked one.
@Suite("Step-up and PIN change")
struct StepUpTests {
    @Test("a step-up with the password yields a privileged token of the same session, kept with it")
    func stepUp() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let session = try await server.register(client)
            let token = try await client.stepUp(password: LiveServer.password)
            #expect(token.scope == "session privileged")
            #expect(token.expiresIn == 300)
            let claims = try jwtClaims(token.accessToken)
            #expect(claims["sid"] as? String == (try jwtClaims(session.accessToken)["sid"] as? String))
            #expect(claims["scope"] as? String == "session privileged")
            let stored = try #require(try await profile.keyStore.session(clientId: LiveServer.demoApp))
            #expect(stored.privilegedToken == token.accessToken)
            #expect(stored.privilegedUntil.map { $0 > Date() } == true)
            #expect(stored.session == session)
        }
    }

    @Test("a step-up with a wrong password: server(invalid_credentials), nothing privileged kept")
    func wrongPassword() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            try await server.register(client)
            await expectError(.server, serverCode: .invalidCredentials) {
                try await client.stepUp(password: "not the password")
            }
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp)?.privilegedToken == nil)
            await expectError(.stepUpRequired) { try await client.changePIN("739164") }
        }
    }

    @Test("a step-up without a session: reauthenticationRequired, nothing sent")
    func withoutSession() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            try await profile.keyStore.setSession(nil, clientId: LiveServer.demoApp)
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            await expectError(.reauthenticationRequired) { try await client.stepUp(password: LiveServer.password) }
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("a step-up from a password-only session (aal1): reauthenticationRequired")
    func passwordSession() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            try await server.register(client)
            let passwordSession = try await server.passwordSession()
            #expect(passwordSession.acr == "aal1")
            try await profile.keyStore.setSession(
                StoredSession(session: passwordSession, receivedAt: Date()), clientId: LiveServer.demoApp)
            await expectError(.reauthenticationRequired) { try await client.stepUp(password: LiveServer.password) }
        }
    }

    @Test("step-up and PIN change on an empty profile: notRegistered")
    func notRegistered() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            await expectError(.notRegistered) { try await client.stepUp(password: LiveServer.password) }
            await expectError(.notRegistered) { try await client.changePIN("739164") }
        }
    }

    @Test("a PIN change without a step-up: stepUpRequired, nothing but the policy sent")
    func changePINNeedsStepUp() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            await expectError(.stepUpRequired) { try await client.changePIN("739164") }
            #expect(transport.requestsBesidesPolicy.isEmpty)
        }
    }

    @Test("a PIN change after the privileged window: stepUpRequired, nothing but the policy sent")
    func changePINAfterWindow() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            try await server.register(client)
            try await client.stepUp(password: LiveServer.password)
            var stored = try #require(try await profile.keyStore.session(clientId: LiveServer.demoApp))
            stored.privilegedUntil = Date(timeIntervalSinceNow: -1)
            try await profile.keyStore.setSession(stored, clientId: LiveServer.demoApp)
            let transport = server.recorder()
            let later = server.client(profile, transport: transport)
            await expectError(.stepUpRequired) { try await later.changePIN("739164") }
            #expect(transport.requestsBesidesPolicy.isEmpty)
        }
    }

    @Test("a malformed new PIN: invalidPIN before anything but the policy is sent", arguments: ["1234", "222222", "345678"])
    func changePINMalformed(pin: String) async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            try await server.register(client)
            try await client.stepUp(password: LiveServer.password)
            let transport = server.recorder()
            let changing = server.client(profile, transport: transport)
            await expectError(.invalidPIN) { try await changing.changePIN(pin) }
            #expect(transport.requestsBesidesPolicy.isEmpty)
        }
    }

    @Test("after a step-up the PIN changes: the new PIN logs in, the old one is wrong")
    func changePIN() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            try await server.register(client)
            try await client.stepUp(password: LiveServer.password)
            try await client.changePIN("739164")
            #expect(try await client.login(pin: "739164").amr == ["pin"])
            let error = await expectError(.pinIncorrect) { try await client.login(pin: LiveServer.pin) }
            #expect(error?.attemptsRemaining == 4)
        }
    }

    @Test("a locked PIN is set again after a fingerprint login and a step-up")
    func unlockLockedPIN() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.strict") { $0.maxPinAttempts = 1 }
            let client = server.client(server.profile(), clientID: "com.example.strict")
            let registered = try await server.register(client)
            await expectError(.pinLocked) { try await client.login(pin: LiveServer.wrongPIN) }
            #expect(try await client.login(prompt: "Log in").amr == ["bio"])
            try await client.stepUp(password: LiveServer.password)
            try await client.changePIN("739164")
            let device = try await server.device(registered.deviceId)
            #expect(device.pinLockedAt == nil)
            #expect(device.pinFailures == 0)
            #expect(try await client.login(pin: "739164").amr == ["pin"])
        }
    }
}
