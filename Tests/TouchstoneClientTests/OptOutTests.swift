import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 8: biometrics turned off for a device; it logs in with the PIN only.
@Suite("Opt-out")
struct OptOutTests {
    @Test("opting out revokes the biometric key on the server and deletes it here; the PIN still logs in")
    func optOut() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let registered = try await server.register(client)
            try await client.optOut()
            #expect(try await client.status().biometric == false)
            #expect(try await client.status().registered)
            let device = try await server.device(registered.deviceId)
            #expect(device.biometricKey == nil)
            #expect(device.biometricKeyThumbprint == nil)
            #expect(device.revokedAt == nil)
            #expect(try await client.login(pin: LiveServer.pin).amr == ["pin"])
        }
    }

    @Test("after opting out, an assertion signed by the old biometric key is refused")
    func oldBiometricKeyRefused() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            try await server.register(client)
            let before = try #require(try await profile.keyStore.registration())
            try #require(before.biometricKey != nil)
            try await client.optOut()
            // Put the deleted key back, as a copy taken before the opt-out would.
            try await profile.keyStore.save(before)
            #expect(try await client.status().biometric)
            await expectError(.server, serverCode: .invalidAssertion) { try await client.login(prompt: "Log in") }
        }
    }

    @Test("a biometric login on an opted-out device asks for the PIN with reason optedOut, without a prompt")
    func loginGoesToPIN() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            try await server.client(profile).optOut()
            let verifier = StateVerifier()
            let pinPrompt = PINPromptRecorder(answering: LiveServer.pin)
            let client = server.client(profile, verifier: verifier)
            let session = try await client.login(prompt: "Log in", fallback: pinPrompt.prompt)
            #expect(session.amr == ["pin"])
            #expect(pinPrompt.reasons == [.optedOut])
            #expect(verifier.verifications == 0)
        }
    }

    @Test("a biometric login on an opted-out device without a fallback prompt: optedOut")
    func loginWithoutFallback() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            try await server.register(client)
            try await client.optOut()
            await expectError(.optedOut) { try await client.login(prompt: "Log in") }
        }
    }

    @Test("a device registered PIN-only behaves as opted out at login")
    func pinOnlyDeviceGoesToPIN() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile, verifier: NoBiometrics()))
            let pinPrompt = PINPromptRecorder(answering: LiveServer.pin)
            let session = try await server.client(profile).login(prompt: "Log in", fallback: pinPrompt.prompt)
            #expect(session.amr == ["pin"])
            #expect(pinPrompt.reasons == [.optedOut])
        }
    }

    @Test("opting out when the server ended the session: reauthenticationRequired, the key is kept, the session forgotten")
    func sessionEndedOnServer() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let registered = try await server.register(client)
            try await server.store.revokeSession(id: try server.sessionRecord(registered).id, reason: "test", at: Date())
            await expectError(.reauthenticationRequired) { try await client.optOut() }
            #expect(try await client.status().biometric)
            #expect(try await server.device(registered.deviceId).biometricKey != nil)
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp) == nil)
        }
    }

    @Test("opting out on an empty profile: notRegistered")
    func notRegistered() async throws {
        try await LiveServer.run { server in
            let transport = server.recorder()
            let client = server.client(server.profile(), transport: transport)
            await expectError(.notRegistered) { try await client.optOut() }
            #expect(transport.requests.isEmpty)
        }
    }
}
