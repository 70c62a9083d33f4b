/// What an attestation statement says about provenance (WebAuthn §6.5.3).
public enum AttestationType: String, Sendable, Hashable, Codable {
    /// No attestation statement.
    case none
    /// Signed with the credential key itself: no provenance.
    case selfAttestation
    /// Basic attestation by a batch attestation key.
    case basic
    /// Attestation CA (TPM AIK certificates).
    case attestationCA
    /// Anonymization CA (Apple).
    case anonymizationCA
    /// Basic or Attestation CA: the format does not tell them apart without external knowledge (packed, fido-u2f).
    case basicOrAttestationCA
}
