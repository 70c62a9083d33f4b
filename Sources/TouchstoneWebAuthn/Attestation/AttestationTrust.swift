import Foundation
import SwiftASN1
import X509

/// Assesses an attestation trust path against the policy's trust anchors (WebAuthn §7.1 steps 23–24).
enum AttestationTrust {
    /// Whether `trustPath` (leaf first) chains, at `time`, to one of `anchors`, or its leaf is itself an anchor.
    static func chains(
        _ trustPath: [Certificate], to anchors: [Certificate], format: AttestationFormat, at time: Date
    ) async -> Bool {
        guard let leaf = trustPath.first, !anchors.isEmpty else { return false }
        // "…or is itself an acceptable certificate": an anchored attestation certificate is trusted as it is, within
        // its validity (RFC 5280 path validation would refuse it as a root because it is not a CA).
        if anchors.contains(leaf) {
            return leaf.notValidBefore <= time && time <= leaf.notValidAfter
        }
        let checked: [ASN1ObjectIdentifier] =
            format == .tpm ? [.X509ExtensionID.subjectAlternativeName, .X509ExtensionID.extendedKeyUsage] : []
        var verifier = Verifier(rootCertificates: CertificateStore(anchors)) {
            AttestationChainPolicy(validationTime: time, checkedCriticalExtensions: checked)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(trustPath.dropFirst()))
        if case .validCertificate = result { return true }
        return false
    }
}
