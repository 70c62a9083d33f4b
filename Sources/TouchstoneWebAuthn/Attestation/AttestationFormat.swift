/// An attestation statement format this package verifies (WebAuthn §8).
///
/// `android-safetynet` and `compound` are not offered: a registration using them is refused with
/// `unsupported_attestation_format`.
public enum AttestationFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// No attestation (§8.7).
    case none = "none"
    /// Packed: self attestation or an x5c chain (§8.2).
    case packed = "packed"
    /// TPM 2.0 (§8.3).
    case tpm = "tpm"
    /// Android Key Attestation (§8.4).
    case androidKey = "android-key"
    /// FIDO U2F (§8.6).
    case fidoU2F = "fido-u2f"
    /// Apple Anonymous (§8.8).
    case apple = "apple"
}
