import Foundation
import Testing
import TouchstoneClient
import TouchstoneCrypto
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Stories 1 and 2: the integrity gate, then one-time registration of user + device + keys.
@Suite("Registration")
struct RegistrationTests {
    @Test("a compromised device stops with deviceCompromised before anything is sent")
    func compromisedDeviceSendsNothing() async throws {
        try await LiveServer.run { server in
            try await server.createUser()
            let profile = server.profile()
            let transport = server.recorder()
            let client = server.client(profile, compromised: true, transport: transport)
            await expectError(.deviceCompromised) {
                try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
            }
            #expect(transport.requests.isEmpty)
            #expect(try await server.auditEvents(.enrollmentStart).isEmpty)
            #expect(profile.files.isEmpty)
        }
    }

    @Test(
        "a PIN that does not fit the policy is refused before the password is sent",
        arguments: ["4821", "123456789", "111111", "123456", "654321", "12a456", ""])
    func invalidPIN(pin: String) async throws {
        try await LiveServer.run { server in
            try await server.createUser()
            let profile = server.profile()
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            await expectError(.invalidPIN) {
                try await client.register(username: "ana", password: LiveServer.password, pin: pin)
            }
            #expect(transport.requestsBesidesPolicy.isEmpty)
            #expect(try await server.auditEvents(.enrollmentStart).isEmpty)
            #expect(profile.files.isEmpty)
        }
    }

    @Test("no PIN where the policy requires one: invalidPIN, nothing sent")
    func missingPIN() async throws {
        try await LiveServer.run { server in
            try await server.createUser()
            let transport = server.recorder()
            let client = server.client(server.profile(), transport: transport)
            await expectError(.invalidPIN) {
                try await client.register(username: "ana", password: LiveServer.password, pin: nil)
            }
            #expect(transport.requestsBesidesPolicy.isEmpty)
        }
    }

    @Test("no PIN on a device without biometrics, even where the policy requires none: invalidPIN, nothing sent")
    func missingPINWithoutBiometrics() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.nopin") { $0.pinRequired = false }
            try await server.createUser()
            let transport = server.recorder()
            let client = server.client(
                server.profile(), clientID: "com.example.nopin", verifier: NoBiometrics(), transport: transport)
            await expectError(.invalidPIN) {
                try await client.register(username: "ana", password: LiveServer.password, pin: nil)
            }
            #expect(transport.requestsBesidesPolicy.isEmpty)
        }
    }

    @Test("a wrong password: server(invalid_credentials), and nothing is kept on the device")
    func wrongPassword() async throws {
        try await LiveServer.run { server in
            try await server.createUser()
            let profile = server.profile()
            let client = server.client(profile)
            await expectError(.server, serverCode: .invalidCredentials) {
                try await client.register(username: "ana", password: "not the password", pin: LiveServer.pin)
            }
            #expect(try await client.status().registered == false)
            #expect(profile.files.isEmpty)
        }
    }

    @Test("an unknown username answers exactly like a wrong password")
    func unknownUser() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let client = server.client(profile)
            await expectError(.server, serverCode: .invalidCredentials) {
                try await client.register(username: "nobody", password: LiveServer.password, pin: LiveServer.pin)
            }
            #expect(profile.files.isEmpty)
        }
    }

    @Test("a client id the server does not know: server(app_not_found), nothing kept")
    func unknownApp() async throws {
        try await LiveServer.run { server in
            try await server.createUser()
            let profile = server.profile()
            let client = server.client(profile, clientID: "com.example.unknown")
            await expectError(.server, serverCode: .appNotFound) {
                try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
            }
            #expect(profile.files.isEmpty)
        }
    }

    @Test("a matching fingerprint registers a biometric key besides the device key and the PIN")
    func matchRegistersBiometricKey() async throws {
        try await LiveServer.run { server in
            let verifier = StateVerifier()
            let client = server.client(server.profile(), verifier: verifier)
            let session = try await server.register(client)
            #expect(verifier.verifications == 1)
            #expect(session.amr == ["bio"])
            #expect(session.acr == "aal2")
            let status = try await client.status()
            #expect(status.registered)
            #expect(status.biometric)
            #expect(status.deviceId == session.deviceId)
            let device = try await server.device(session.deviceId)
            #expect(device.biometricKey != nil)
            #expect(device.biometricKeyThumbprint != device.deviceKeyThumbprint)
            #expect(device.pinHash != nil)
            #expect(device.name == "Test Device")
        }
    }

    @Test("without a sensor the device registers with its PIN only: no biometric key, and no prompt")
    func noBiometricsRegistersPINOnly() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile(), verifier: NoBiometrics())
            let session = try await server.register(client)
            #expect(session.amr == ["pin"])
            #expect(try await client.status().registered)
            #expect(try await client.status().biometric == false)
            #expect(try await server.device(session.deviceId).biometricKey == nil)
        }
    }

    @Test(
        "a sensor that cannot verify now registers PIN-only without prompting: a presence prompt is not a biometric",
        arguments: [BiometryState.noHardware, .notEnrolled, .passcodeNotSet, .lockedOut])
    func unavailableSensorRegistersPINOnly(state: BiometryState) async throws {
        try await LiveServer.run { server in
            let verifier = StateVerifier(state: state)
            let client = server.client(server.profile(), verifier: verifier)
            let session = try await server.register(client)
            #expect(verifier.verifications == 0)
            #expect(try await client.status().biometric == false)
            #expect(try await server.device(session.deviceId).biometricKey == nil)
        }
    }

    @Test("an app whose policy forbids biometrics registers PIN-only, without prompting")
    func policyForbidsBiometry() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.nobio") { $0.biometricAllowed = false }
            let verifier = StateVerifier()
            let client = server.client(server.profile(), clientID: "com.example.nobio", verifier: verifier)
            let session = try await server.register(client)
            #expect(verifier.verifications == 0)
            #expect(try await client.status().biometric == false)
            #expect(try await server.device(session.deviceId).biometricKey == nil)
        }
    }

    @Test("an app that requires no PIN registers a biometric-only device")
    func biometricOnly() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.nopin") { $0.pinRequired = false }
            let client = server.client(server.profile(), clientID: "com.example.nopin")
            let session = try await server.register(client, pin: nil)
            #expect(session.amr == ["bio"])
            #expect(try await client.status().biometric)
            let device = try await server.device(session.deviceId)
            #expect(device.pinHash == nil)
            #expect(device.biometricKey != nil)
        }
    }

    @Test("cancelling the fingerprint prompt: userCancelled, and nothing is kept on the device or the server")
    func cancelKeepsNothing() async throws {
        try await LiveServer.run { server in
            let userId = try await server.createUser()
            let profile = server.profile()
            let client = server.client(profile, verifier: ScriptedVerifier(.cancel))
            await expectError(.userCancelled) {
                try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
            }
            #expect(profile.credentialFiles.isEmpty)
            #expect(try await client.status().registered == false)
            #expect(try await server.store.devices(userId: userId).isEmpty)
        }
    }

    @Test("a fingerprint that does not match during registration: biometryFailed, nothing kept")
    func noMatchKeepsNothing() async throws {
        try await LiveServer.run { server in
            let userId = try await server.createUser()
            let profile = server.profile()
            let client = server.client(profile, verifier: ScriptedVerifier(.nomatch))
            await expectError(.biometryFailed) {
                try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
            }
            #expect(profile.credentialFiles.isEmpty)
            #expect(try await server.store.devices(userId: userId).isEmpty)
        }
    }

    @Test(
        "choosing the PIN, or a lockout, at the registration prompt registers PIN-only",
        arguments: [TouchstoneError.Code.userFallback, .biometryLockout])
    func fallbackRegistersPINOnly(failure: TouchstoneError.Code) async throws {
        try await LiveServer.run { server in
            let verifier = StateVerifier(failure: failure)
            let client = server.client(server.profile(), verifier: verifier)
            let session = try await server.register(client)
            #expect(verifier.verifications == 1)
            #expect(session.amr == ["pin"])
            #expect(try await client.status().registered)
            #expect(try await client.status().biometric == false)
            #expect(try await server.device(session.deviceId).biometricKey == nil)
        }
    }

    @Test(
        "the scripted fallback and lockout verifiers register PIN-only, with a session for the PIN",
        arguments: [ScriptedVerifier.Outcome.fallback, .lockout])
    func scriptedFallbackRegistersPINOnly(outcome: ScriptedVerifier.Outcome) async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile(), verifier: ScriptedVerifier(outcome))
            let session = try await server.register(client)
            #expect(session.amr == ["pin"])
            #expect(try await client.status().biometric == false)
            #expect(try await server.device(session.deviceId).biometricKey == nil)
        }
    }

    @Test(
        "choosing the PIN, or a lockout, when registering without a PIN: the error is thrown and nothing kept",
        arguments: [TouchstoneError.Code.userFallback, .biometryLockout])
    func fallbackWithoutPIN(failure: TouchstoneError.Code) async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.nopin") { $0.pinRequired = false }
            let userId = try await server.createUser()
            let profile = server.profile()
            let client = server.client(
                profile, clientID: "com.example.nopin", verifier: StateVerifier(failure: failure))
            await expectError(failure) {
                try await client.register(username: "ana", password: LiveServer.password, pin: nil)
            }
            #expect(profile.credentialFiles.isEmpty)
            #expect(try await server.store.devices(userId: userId).isEmpty)
        }
    }

    @Test("registering the same device again proves it with the old device key: it replaces the old one at once, no approval")
    func registerAgainReplaces() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let first = try await server.register(server.client(profile))
            let oldKey = try #require(try await profile.keyStore.registration()?.deviceKey.publicKey)
            let transport = server.recorder()
            let again = PendingRegistration(server.client(profile, transport: transport), on: profile, pin: "739164")
            #expect(await again.waitingForApproval() == nil, "no approval is needed")
            let second = try await again.session
            #expect(second.deviceId != first.deviceId)
            #expect(try await again.client.status().deviceId == second.deviceId)
            #expect(try await server.device(first.deviceId).isActive == false)
            #expect(try await server.device(second.deviceId).isActive)
            #expect(try await again.client.login(pin: "739164").amr == ["pin"])

            // The proof is the old device key's signature over this enrolment.
            let completing = try #require(transport.sent.first { $0.path.hasSuffix("/complete") })
            let enrollmentId = completing.path.split(separator: "/")[2]
            let completion = try WireCoding.decoder().decode(EnrollmentCompletion.self, from: try #require(completing.body))
            let proof = try #require(completion.previousDeviceProof)
            #expect(proof != completion.deviceProof, "not the new key's")
            _ = try verifiedClaims(proof, as: ProofClaims.self, by: oldKey, issuer: String(enrollmentId), audience: server.url)
        }
    }

    @Test("a re-registration the server refuses keeps the old registration, here and on the server, usable")
    func refusedRegisterAgainKeepsOld() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let first = try await server.register(server.client(profile))
            let before = try profile.snapshot()
            // The previous-device proof signed by the new device key instead of the old one: refused.
            let transport = server.recorder { request in
                guard request.path.hasSuffix("/complete"), let body = request.body else { return }
                var completion = try WireCoding.decoder().decode(EnrollmentCompletion.self, from: body)
                completion.previousDeviceProof = completion.deviceProof
                request.body = try WireCoding.encoder().encode(completion)
            }
            let client = server.client(profile, transport: transport)
            await expectError(.server, serverCode: .invalidProof) {
                try await client.register(username: "ana", password: LiveServer.password, pin: "739164")
            }
            #expect(try profile.snapshot() == before)
            #expect(try await client.status().deviceId == first.deviceId)
            #expect(try await server.device(first.deviceId).isActive)
            #expect(try await client.login(pin: LiveServer.pin).deviceId == first.deviceId)
        }
    }

    @Test("registering as another user on a registered profile sends no previous-device proof")
    func otherUserSendsNoProof() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            try await server.register(server.client(profile))
            try await server.createUser("bo")
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            let session = try await client.register(username: "bo", password: LiveServer.password, pin: LiveServer.pin)
            #expect(try await client.status().username == "bo")
            #expect(try await client.status().deviceId == session.deviceId)
            let completing = try #require(transport.sent.first { $0.path.hasSuffix("/complete") })
            let completion = try WireCoding.decoder().decode(EnrollmentCompletion.self, from: try #require(completing.body))
            #expect(completion.previousDeviceProof == nil)
        }
    }

    @Test("the first session is kept for the app")
    func firstSessionKept() async throws {
        try await LiveServer.run { server in
            let profile = server.profile()
            let transport = server.recorder()
            let client = server.client(profile, transport: transport)
            let session = try await server.register(client)
            let sent = transport.requests.count
            #expect(try await client.currentSession() == session)
            #expect(try await profile.keyStore.session(clientId: LiveServer.demoApp)?.session == session)
            #expect(transport.requests.count == sent)
        }
    }
}
