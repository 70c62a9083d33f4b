import X509

/// The outcome of an attestation statement format's verification procedure: the attestation type and the
/// attestation trust path (empty for none and self attestation).
package struct VerifiedAttestationStatement: Sendable {
    let type: AttestationType
    let trustPath: [Certificate]
}
