import Foundation
import X509

/// Verifies an Android key attestation certificate chain and reads what it attests.
///
/// Pure: the time, the trust anchors and the status list are given; nothing is fetched.
public struct AndroidKeyAttestationVerifier: Sendable {
    private let validator: CertificateChainValidator

    /// A verifier for chains up to `trustAnchors`, refusing what `statusList` lists.
    ///
    /// ⚠️ Keep the status list current (Google updates it often): an empty one revokes nothing.
    /// - Parameters:
    ///   - trustAnchors: the roots a chain may end at (Google's built in).
    ///   - statusList: Google's attestation status list; a chain with any certificate listed in it fails.
    public init(trustAnchors: AttestationTrustAnchors = AttestationTrustAnchors(), statusList: AttestationStatusList) {
        validator = CertificateChainValidator(anchors: trustAnchors.android, statusList: statusList)
    }

    /// Verifies a chain as `KeyStore.getCertificateChain` returns it and parses the leaf's `KeyDescription`.
    ///
    /// The chain validates when every certificate is signed by the next, every issuer is a CA, the last is signed by
    /// a trusted root (or is a self-signed copy of one: same subject and key), every certificate but such a copy is
    /// valid at `time`, and none is listed in the status list.
    /// - Parameters:
    ///   - chain: the certificates' DER, leaf first.
    ///   - time: the verification time (now).
    /// - Returns: the attested key and its description, which ``AndroidKeyAttestationPolicy`` then judges.
    /// - Throws: ``AttestationError`` for a chain that is not trusted or a leaf without a well-formed `KeyDescription`.
    public func verify(chain: [[UInt8]], at time: Date) throws(AttestationError) -> AndroidKeyAttestation {
        let certificates = try CertificateChainValidator.certificates(chain)
        try validator.validate(certificates, at: time)
        let leaf = certificates[0]
        guard let ext = leaf.extensions[oid: KeyDescription.extensionOID] else {
            throw AttestationError(.missingKeyDescription, "the leaf has no key attestation extension")
        }
        return AndroidKeyAttestation(
            publicKey: AttestationPublicKey(certificateKey: leaf.publicKey),
            keyDescription: try KeyDescription(derEncoded: Array(ext.value)))
    }
}
