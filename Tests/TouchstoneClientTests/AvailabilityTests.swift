import Foundation
import Testing
import TouchstoneClient

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 14: before offering biometrics the SDK says why not, when not.
@Suite("Availability, with the reason when biometrics cannot be offered")
struct AvailabilityTests {
    @Test("a sensor with an enrolled fingerprint, on an app that allows biometrics: available")
    func available() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            #expect(await client.availability() == .available(.fingerprint))
        }
    }

    @Test("the kind of biometric is the one the platform reports")
    func kindOfBiometric() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile(), verifier: StateVerifier(state: .available(.face)))
            #expect(await client.availability() == .available(.face))
        }
    }

    @Test("a compromised device is the first reason, before the sensor and without asking the server")
    func deviceCompromised() async throws {
        try await LiveServer.run { server in
            let transport = server.recorder()
            let client = server.client(
                server.profile(), verifier: NoBiometrics(), compromised: true, transport: transport)
            #expect(await client.availability() == .unavailable(.deviceCompromised))
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("a device without a sensor: biometryNotAvailable")
    func noSensor() async throws {
        try await LiveServer.run { server in
            let transport = server.recorder()
            let client = server.client(server.profile(), verifier: NoBiometrics(), transport: transport)
            #expect(await client.availability() == .unavailable(.biometryNotAvailable))
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("a sensor locked out after too many tries: biometryLockout")
    func lockout() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile(), verifier: ScriptedVerifier(.lockout))
            #expect(await client.availability() == .unavailable(.biometryLockout))
        }
    }

    @Test(
        "what the sensor reports before any prompt is the reason",
        arguments: [
            (BiometryState.noHardware, TouchstoneError.Code.biometryNotAvailable),
            (.notEnrolled, .biometryNotEnrolled),
            (.passcodeNotSet, .passcodeNotSet),
            (.lockedOut, .biometryLockout),
        ])
    func sensorStates(state: BiometryState, reason: TouchstoneError.Code) async throws {
        try await LiveServer.run { server in
            let verifier = StateVerifier(state: state)
            let client = server.client(server.profile(), verifier: verifier)
            #expect(await client.availability() == .unavailable(reason))
            #expect(verifier.verifications == 0)
        }
    }

    @Test("after opting out: optedOut")
    func optedOut() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            try await server.register(client)
            #expect(await client.availability() == .available(.fingerprint))
            try await client.optOut()
            #expect(await client.availability() == .unavailable(.optedOut))
        }
    }

    @Test("an app whose server-side policy forbids biometrics: policyForbidsBiometry")
    func policyForbidsBiometry() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.nobio") { $0.biometricAllowed = false }
            let client = server.client(server.profile(), clientID: "com.example.nobio")
            #expect(await client.availability() == .unavailable(.policyForbidsBiometry))
        }
    }

    @Test("a policy that forbids biometrics after the device registered a biometric key: policyForbidsBiometry")
    func policyChangedAfterRegistration() async throws {
        try await LiveServer.run { server in
            let client = server.client(server.profile())
            try await server.register(client)
            try await server.updatePolicy { $0.biometricAllowed = false }
            #expect(await client.availability() == .unavailable(.policyForbidsBiometry))
        }
    }

    @Test(
        "a device registered under a policy that forbids biometrics says the policy forbids them, not that the user opted out",
        )
    func policyForbidsBiometryAfterRegistration() async throws {
        try await LiveServer.run { server in
            try await server.saveApp("com.example.nobio") { $0.biometricAllowed = false }
            let client = server.client(server.profile(), clientID: "com.example.nobio")
            try await server.register(client)
            #expect(try await client.status().biometric == false)
            #expect(await client.availability() == .unavailable(.policyForbidsBiometry))
        }
    }
}
