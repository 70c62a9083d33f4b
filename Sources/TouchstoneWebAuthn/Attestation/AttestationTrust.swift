import Foundation
import SwiftASN1
import X509

/// Assesses an attestation trust path against the policy's trust anchors (WebAuthn §7.1 steps 24–25).
enum AttestationTrust {
    /// Whether `trustPath` (leaf first) chains, at `time`, to one of `anchors`, or its leaf is itself an anchor.
    static func chains(
        _ trustPath: [Certificate], to anchors: [Certificate], format: AttestationFormat, at time: Date
    ) async -> Bool {
        guard let leaf = trustPath.first, !anchors.isEmpty else { return false }
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
