import TouchstoneProtocol

/// The platform's hardware key attestation (Android key attestation, Apple App Attest): proof for the server that the
/// new keys were made in secure hardware, or by the genuine app on a genuine device.
///
/// The server judges it: an app whose policy requires one refuses a registration without it
/// (`attestation_required`), and any attestation sent must pass every check (`attestation_invalid`).
public protocol KeyAttestor: Sendable {
    /// Attests the keys of one registration.
    /// - Parameter subject: the enrolment challenge and the two new keys.
    /// - Returns: the `attestation` member of the enrolment's completion; `nil` when this device cannot attest (the
    ///   server's policy then decides).
    /// - Throws: when the platform's attestation fails; the registration stops and nothing is kept.
    func attest(_ subject: KeyAttestationSubject) async throws -> EnrollmentAttestation?
}
