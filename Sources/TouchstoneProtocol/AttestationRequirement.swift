/// Whether an app's enrolments must carry a hardware key attestation: the policy's `attestation`.
public enum AttestationRequirement: String, Codable, Sendable, Equatable, CaseIterable {
    /// An attestation is optional; one that is sent must still pass every check.
    case none
    /// An enrolment without an attestation is refused (403 `attestation_required`).
    case required
}
