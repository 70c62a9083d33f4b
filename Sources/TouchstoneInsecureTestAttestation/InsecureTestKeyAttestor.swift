import Foundation
import TouchstoneClient
import TouchstoneProtocol

/// ⚠️ TESTS ONLY: an Android key attestation of the registration's keys made by an ``InsecureTestAttestationCA``, for
/// end-to-end tests of attested enrolment on a machine without secure hardware (`touchstone device register
/// --insecure-test-attestation-ca`). Only a server that trusts the CA's root (`--insecure-attestation-root`) accepts it.
public struct InsecureTestKeyAttestor: KeyAttestor {
    private let ca: InsecureTestAttestationCA
    private let packageName: String
    private let signingCertificateSHA256: [UInt8]

    /// Attestations by `ca` that name the app `packageName` signed by the certificate with this SHA-256.
    public init(ca: InsecureTestAttestationCA, packageName: String, signingCertificateSHA256: [UInt8]) {
        self.ca = ca
        self.packageName = packageName
        self.signingCertificateSHA256 = signingCertificateSHA256
    }

    /// Both keys' chains, each key in a TEE and the biometric key needing a biometric for every use.
    public func attest(_ subject: KeyAttestationSubject) async throws -> EnrollmentAttestation? {
        guard let challenge = Base64URL.canonicalBytes(subject.challenge) else {
            throw TouchstoneError(.transport, "the enrolment challenge is not base64url")
        }
        func chain(_ spki: [UInt8], biometric: Bool) throws -> [String] {
            let description = TestKeyDescription(
                challenge: challenge, packageName: packageName, signingCertificateSHA256: signingCertificateSHA256,
                biometric: biometric)
            return try ca.androidChain(subjectPublicKeyInfo: spki, description: description).map(Base64URL.encode)
        }
        return .androidKey(
            deviceKey: try chain(subject.deviceKey.subjectPublicKeyInfoDER, biometric: false),
            biometricKey: try subject.biometricKey.map { try chain($0.subjectPublicKeyInfoDER, biometric: true) })
    }
}
