import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Stories 3 and 5: a fingerprint signs a fresh challenge; the PIN when the fingerprint cannot be used.
@Suite("Biometric login and its PIN fallback")
struct BiometricLoginTests {
    @Test("a matching fingerprint logs in with the biometric key: amr bio, and the session is kept")
    func match() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            let registered = try await server.register(client)
            let session = try await client.login(prompt: "Log in to Example")
            #expect(session.amr == ["bio"])
            #expect(session.acr == "aal2")
            #expect(session.deviceId == registered.deviceId)
            #expect(session.accessToken != registered.accessToken)
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp)?.session == session)
            let claims = try jwtClaims(session.accessToken)
            #expect(claims["aud"] as? String == LiveServer.demoApp)
            #expect(claims["did"] as? String == registered.deviceId)
            #expect(claims["iss"] as? String == server.url.absoluteString)
        }
    }

    @Test(
        "a fingerprint that does not match, or a cancelled prompt: nothing is sent and nothing changes",
        arguments: [
            (ScriptedVerifier.Outcome.nomatch, TouchstoneError.Code.biometryFailed), (.cancel, .userCancelled),
        ])
    func refusedPrompt(outcome: ScriptedVerifier.Outcome, code: TouchstoneError.Code) async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile))
            let before = try profile.snapshot()
            let transport = server.recorder()
            let pinPrompt = PINPromptRecorder(answering: LiveServer.pin)
            let client = server.client(profile, verifier: ScriptedVerifier(outcome), transport: transport)
            await expectError(code) {
                try await client.login(prompt: "Log in", fallback: pinPrompt.prompt)
            }
            #expect(pinPrompt.reasons.isEmpty)
            #expect(transport.requests.isEmpty)
            #expect(try profile.snapshot() == before)
            let device = try await server.device(registered.deviceId)
            #expect(device.pinFailures == 0)
            #expect(device.revokedAt == nil)
        }
    }

    @Test(
        "a lockout, or \"use PIN\", asks for the PIN once with that reason, then logs in with the PIN",
        arguments: [
            (ScriptedVerifier.Outcome.lockout, TouchstoneError.Code.biometryLockout), (.fallback, .userFallback),
        ])
    func fallsBackToPIN(outcome: ScriptedVerifier.Outcome, reason: TouchstoneError.Code) async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile))
            let pinPrompt = PINPromptRecorder(answering: LiveServer.pin)
            let client = server.client(profile, verifier: ScriptedVerifier(outcome))
            let session = try await client.login(prompt: "Log in", fallback: pinPrompt.prompt)
            #expect(pinPrompt.reasons == [reason])
            #expect(session.amr == ["pin"])
            #expect(session.deviceId == registered.deviceId)
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp)?.session == session)
        }
    }

    @Test(
        "a lockout, or \"use PIN\", without a fallback prompt: that error is thrown",
        arguments: [
            (ScriptedVerifier.Outcome.lockout, TouchstoneError.Code.biometryLockout), (.fallback, .userFallback),
        ])
    func noFallbackPrompt(outcome: ScriptedVerifier.Outcome, code: TouchstoneError.Code) async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let transport = server.recorder()
            let client = server.client(profile, verifier: ScriptedVerifier(outcome), transport: transport)
            await expectError(code) { try await client.login(prompt: "Log in") }
            #expect(transport.requests.isEmpty)
        }
    }

    @Test(
        "a sensor that became unavailable, or lost its enrolled fingers, asks for the PIN once with that reason",
        arguments: [TouchstoneError.Code.biometryNotAvailable, .biometryNotEnrolled])
    func sensorGoneFallsBackToPIN(failure: TouchstoneError.Code) async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let pinPrompt = PINPromptRecorder(answering: LiveServer.pin)
            let verifier = StateVerifier(failure: failure)
            let client = server.client(profile, verifier: verifier)
            let session = try await client.login(prompt: "Log in", fallback: pinPrompt.prompt)
            #expect(verifier.verifications == 1)
            #expect(pinPrompt.reasons == [failure])
            #expect(session.amr == ["pin"])
            await expectError(failure) { try await client.login(prompt: "Log in") }
        }
    }

    @Test("the PIN prompt answering nil (the user cancels): userCancelled, nothing sent")
    func pinPromptCancelled() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let before = try profile.snapshot()
            let transport = server.recorder()
            let pinPrompt = PINPromptRecorder(answering: nil)
            let client = server.client(profile, verifier: ScriptedVerifier(.lockout), transport: transport)
            await expectError(.userCancelled) {
                try await client.login(prompt: "Log in", fallback: pinPrompt.prompt)
            }
            #expect(pinPrompt.reasons == [.biometryLockout])
            #expect(transport.requests.isEmpty)
            #expect(try profile.snapshot() == before)
        }
    }

    @Test("a wrong PIN through the fallback: pinIncorrect with the attempts left, and the SDK does not ask again")
    func wrongPINThroughFallback() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile))
            let transport = server.recorder()
            let pinPrompt = PINPromptRecorder(answering: LiveServer.wrongPIN)
            let client = server.client(profile, verifier: ScriptedVerifier(.fallback), transport: transport)
            let error = await expectError(.pinIncorrect) {
                try await client.login(prompt: "Log in", fallback: pinPrompt.prompt)
            }
            #expect(error?.attemptsRemaining == 4)
            #expect(pinPrompt.reasons == [.userFallback])
            #expect(transport.requests.filter { $0 == "POST /v1/sessions" }.count == 1)
            #expect(try await server.device(registered.deviceId).pinFailures == 1)
        }
    }

    @Test("a malformed PIN through the fallback: invalidPIN, nothing counted")
    func malformedPINThroughFallback() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let registered = try await server.register(server.client(profile))
            let transport = server.recorder()
            let pinPrompt = PINPromptRecorder(answering: "12")
            let client = server.client(profile, verifier: ScriptedVerifier(.lockout), transport: transport)
            await expectError(.invalidPIN) {
                try await client.login(prompt: "Log in", fallback: pinPrompt.prompt)
            }
            #expect(pinPrompt.reasons == [.biometryLockout])
            #expect(transport.requestsBesidesPolicy.isEmpty)
            #expect(try await server.device(registered.deviceId).pinFailures == 0)
        }
    }

    @Test("a compromised device stops with deviceCompromised before the prompt and before anything is sent")
    func compromisedDevice() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            let verifier = StateVerifier()
            let transport = server.recorder()
            let pinPrompt = PINPromptRecorder(answering: LiveServer.pin)
            let client = server.client(profile, verifier: verifier, compromised: true, transport: transport)
            await expectError(.deviceCompromised) {
                try await client.login(prompt: "Log in", fallback: pinPrompt.prompt)
            }
            await expectError(.deviceCompromised) { try await client.login(pin: LiveServer.pin) }
            #expect(verifier.verifications == 0)
            #expect(pinPrompt.reasons.isEmpty)
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("a biometric login on an app whose policy now forbids biometrics: policyForbidsBiometry")
    func policyForbidsBiometry() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            try await server.register(client)
            try await server.updatePolicy { $0.biometricAllowed = false }
            await expectError(.policyForbidsBiometry) { try await client.login(prompt: "Log in") }
            #expect(try await client.login(pin: LiveServer.pin).amr == ["pin"])
        }
    }

    @Test("a device revoked on the server: server(device_revoked)")
    func revokedDevice() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            let registered = try await server.register(client)
            let deviceId = try #require(registered.deviceId)
            #expect(try await server.store.revokeDevice(id: deviceId, reason: "admin", at: Date(), notices: []))
            await expectError(.server, serverCode: .deviceRevoked) { try await client.login(prompt: "Log in") }
            await expectError(.server, serverCode: .deviceRevoked) { try await client.login(pin: LiveServer.pin) }
        }
    }
}
