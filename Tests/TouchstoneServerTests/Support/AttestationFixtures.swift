import Foundation
import HummingbirdTesting
import TouchstoneAttestation
import TouchstoneCrypto
import TouchstoneInsecureTestAttestation
import TouchstoneProtocol
import TouchstoneTestSupport
import TouchstoneWebAuthnTestSupport

@testable import TouchstoneStorage

/// The test roots of the attestation tests, trusted by their server, and the app that accepts their attestations.
struct AttestationFixtures: Sendable {
    static let clientId = "com.example.attested"
    static let packageName = "com.example.attested.android"
    static let signingCertificateSHA256 = Array(repeating: UInt8(0xab), count: 32)

    /// Makes Android-like chains.
    let ca: InsecureTestAttestationCA
    /// Makes App Attest objects under its own root.
    let apple = AppAttestFixture()

    init() throws {
        ca = try InsecureTestAttestationCA()
    }

    /// Both roots, as `--insecure-attestation-root` would give them.
    func trustAnchors() throws -> AttestationTrustAnchors {
        try AttestationTrustAnchors(insecureAdditionalRootsPEM: [try ca.rootPEM(), try apple.rootPEM()])
    }

    /// The app whose policy says `requirement`, accepting the test package and App ID.
    static func app(_ requirement: AttestationRequirement, appleDevelopment: Bool = false) -> AppRecord {
        AppRecord(
            clientId: clientId, publisher: "attested",
            policy: AppPolicy(clientId: clientId, publisher: "attested", attestation: requirement),
            attestedApps: AttestedApps(
                android: [
                    AttestedAndroidApp(
                        packageName: packageName,
                        signingCertificateSHA256: signingCertificateSHA256.map { String(format: "%02x", $0) }.joined())
                ],
                appleAppIds: [AppAttestFixture.appID], appleDevelopment: appleDevelopment))
    }
}

/// What an Android attestation of a test device's two keys is made of; each field changes one thing.
struct AndroidAttestationInput {
    var ca: InsecureTestAttestationCA
    var device: TestKeyDescription
    var biometric: TestKeyDescription
    var deviceKey: [UInt8]
    var biometricKey: [UInt8]
    var withKeyDescription = true
    var leafValidity: ClosedRange<Date>?
    var sendBiometricChain = true
    /// Applied to the device key's chain (DER, leaf first) once it is made.
    var editDeviceChain: ([[UInt8]]) -> [[UInt8]] = { $0 }

    /// A valid attestation of `device`'s keys for `challenge`, in a TEE.
    init(_ testDevice: TestDevice, challenge: String, ca: InsecureTestAttestationCA) {
        self.ca = ca
        let bytes = Array(Base64URL.decode(challenge) ?? Data())
        func description(biometric: Bool) -> TestKeyDescription {
            TestKeyDescription(
                challenge: bytes, packageName: AttestationFixtures.packageName,
                signingCertificateSHA256: AttestationFixtures.signingCertificateSHA256, biometric: biometric)
        }
        device = description(biometric: false)
        biometric = description(biometric: true)
        deviceKey = testDevice.deviceKey.publicKey.subjectPublicKeyInfoDER
        biometricKey = testDevice.biometricKey?.publicKey.subjectPublicKeyInfoDER ?? []
    }

    func attestation() throws -> EnrollmentAttestation {
        func chain(_ key: [UInt8], _ description: TestKeyDescription) throws -> [[UInt8]] {
            try ca.androidChain(
                subjectPublicKeyInfo: key, description: withKeyDescription ? description : nil, validity: leafValidity)
        }
        return .androidKey(
            deviceKey: editDeviceChain(try chain(deviceKey, device)).map(Base64URL.encode),
            biometricKey: sendBiometricChain ? try chain(biometricKey, biometric).map(Base64URL.encode) : nil)
    }
}

extension AppAttestFixture {
    /// This fixture's attestation of `device`'s keys for `challenge` at `now`, after `tweak`.
    func attestation(
        of device: TestDevice, challenge: String, now: Date, tweak: (inout AppAttestFixture) -> Void = { _ in }
    ) throws -> EnrollmentAttestation {
        var fixture = self
        fixture.time = now
        fixture.clientDataHash = AppAttestClientData.hash(
            challenge: challenge, deviceKeyID: device.deviceKey.publicKey.thumbprint,
            biometricKeyID: device.biometricKey?.publicKey.thumbprint)
        tweak(&fixture)
        return .appleAppAttest(
            keyId: Base64URL.encode(fixture.keyID), attestationObject: Base64URL.encode(try fixture.attestationObject()))
    }
}

extension Harness {
    /// Completes an enrolment of `device` with `attestation`.
    func completeEnrollment(
        _ device: TestDevice, _ started: EnrollmentStarted, attestation: EnrollmentAttestation?
    ) async throws -> TestResponse {
        var completion = try await device.completion(
            enrollmentId: started.enrollmentId, challenge: started.challenge, pin: Harness.pin, now: now)
        completion.attestation = attestation
        return try await send(.post, "/v1/enrollments/\(started.enrollmentId)/complete", json: completion)
    }

    /// Creates `username`, enrols `device` in the attested app with the attestation `make` builds for the enrolment's
    /// challenge, and expects 201; returns the enrolment.
    func enrollAttested(
        _ device: TestDevice, username: String, _ make: (EnrollmentStarted) throws -> EnrollmentAttestation
    ) async throws -> EnrollmentCompleted {
        try await createAccount(username)
        let started = try await startEnrollment(username, clientId: AttestationFixtures.clientId)
        let response = try await completeEnrollment(device, started, attestation: try make(started))
        let completed = try decode(EnrollmentCompleted.self, response)
        devices[completed.deviceId] = device
        return completed
    }
}
