import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 5: the app PIN, counted per device on the server and locked after the policy's maximum.
@Suite("PIN login")
struct PINLoginTests {
    @Test("the right PIN logs in with the device key: amr pin, and the session is kept")
    func rightPIN() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile, verifier: NoBiometrics())
            let registered = try await server.register(client)
            let session = try await client.login(pin: LiveServer.pin)
            #expect(session.amr == ["pin"])
            #expect(session.acr == "aal2")
            #expect(session.deviceId == registered.deviceId)
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp)?.session == session)
        }
    }

    @Test("wrong PINs count down 4, 3, 2, 1, then the PIN is locked, even for the right PIN")
    func countdownThenLocked() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            let registered = try await server.register(client)
            var remaining: [Int?] = []
            for _ in 1...4 {
                let error = await expectError(.pinIncorrect) { try await client.login(pin: LiveServer.wrongPIN) }
                remaining.append(error?.attemptsRemaining)
            }
            #expect(remaining == [4, 3, 2, 1])
            await expectError(.pinLocked) { try await client.login(pin: LiveServer.wrongPIN) }
            await expectError(.pinLocked) { try await client.login(pin: LiveServer.pin) }
            let device = try await server.device(registered.deviceId)
            #expect(device.pinLockedAt != nil)
            #expect(device.pinFailures == 5)
            // The biometric still works: only the PIN is locked.
            #expect(try await client.login(prompt: "Log in").amr == ["bio"])
        }
    }

    @Test("the right PIN resets the count of wrong ones")
    func rightPINResetsCount() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            let registered = try await server.register(client)
            let error = await expectError(.pinIncorrect) { try await client.login(pin: LiveServer.wrongPIN) }
            #expect(error?.attemptsRemaining == 4)
            #expect(try await server.device(registered.deviceId).pinFailures == 1)
            _ = try await client.login(pin: LiveServer.pin)
            #expect(try await server.device(registered.deviceId).pinFailures == 0)
            let again = await expectError(.pinIncorrect) { try await client.login(pin: LiveServer.wrongPIN) }
            #expect(again?.attemptsRemaining == 4)
        }
    }

    @Test(
        "a malformed PIN: invalidPIN, nothing sent but the policy read, nothing counted",
        arguments: ["12", "123456789", "000000", "987654", "48 916", "４８２９１６"])
    func malformedPIN(pin: String) async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile))
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            await expectError(.invalidPIN) { try await client.login(pin: pin) }
            #expect(transport.requestsBesidesPolicy.isEmpty)
            #expect(try await server.device(registered.deviceId).pinFailures == 0)
        }
    }

    @Test("a locked PIN is reset by registering the device again: the old device key proves it, so no approval")
    func lockedPINResetByRegisteringAgain() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.strict") { $0.maxPinAttempts = 1 }
            let profile = server.profile()
            let client = server.client(profile, clientID: "com.example.strict")
            let registered = try await server.register(client)
            await expectError(.pinLocked) { try await client.login(pin: LiveServer.wrongPIN) }
            await expectError(.pinLocked) { try await client.login(pin: LiveServer.pin) }
            let again = PendingRegistration(client, on: profile)
            #expect(await again.waitingForApproval() == nil, "no approval is needed")
            let session = try await again.session
            #expect(session.deviceId != registered.deviceId)
            #expect(try await server.device(registered.deviceId).isActive == false)
            #expect(try await client.login(pin: LiveServer.pin).amr == ["pin"])
        }
    }

    @Test("a PIN login on a device registered without a PIN: server(invalid_assertion), nothing counted")
    func noPINRegistered() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.nopin") { $0.pinRequired = false }
            let client = server.client(server.profile(), clientID: "com.example.nopin")
            let registered = try await server.register(client, pin: nil)
            await expectError(.server, serverCode: .invalidAssertion) { try await client.login(pin: LiveServer.pin) }
            #expect(try await server.device(registered.deviceId).pinFailures == 0)
        }
    }

    @Test("login on an empty profile: notRegistered, nothing sent")
    func notRegistered() async throws {
        try await LiveServer.run { server in
            let transport = server.recorder()
            let client = server.client(server.profile(), transport: transport)
            await expectError(.notRegistered) { try await client.login(pin: LiveServer.pin) }
            await expectError(.notRegistered) { try await client.login(prompt: "Log in") }
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("a registration made with another server is not this server's: notRegistered")
    func registrationOfAnotherServer() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let elsewhere = TouchstoneClient(
                server: try #require(URL(string: "http://localhost:1")), clientID: LiveServer.demoApp,
                platform: .software(directory: profile.directory, verifier: ScriptedVerifier(.match)))
            #expect(try await elsewhere.status().registered == false)
            await expectError(.notRegistered) { try await elsewhere.login(prompt: "Log in") }
            await expectError(.notRegistered) { try await elsewhere.login(pin: LiveServer.pin) }
        }
    }
}
