import Crypto
import X509
import _CryptoExtras

/// A public key that an attestation speaks for: the key being enrolled, which the attested key must equal.
///
/// Two values are equal when they are the same key, whatever form they were made from.
public struct AttestationPublicKey: Sendable, Hashable {
    /// The key, in the certificate library's form.
    let certificateKey: Certificate.PublicKey

    init(certificateKey: Certificate.PublicKey) {
        self.certificateKey = certificateKey
    }

    /// A P-256 key (ES256, the App Attest key and most Android keys).
    public init(_ key: P256.Signing.PublicKey) {
        certificateKey = Certificate.PublicKey(key)
    }

    /// A P-384 key.
    public init(_ key: P384.Signing.PublicKey) {
        certificateKey = Certificate.PublicKey(key)
    }

    /// An RSA key.
    public init(_ key: _RSA.Signing.PublicKey) {
        certificateKey = Certificate.PublicKey(key)
    }

    /// An Ed25519 key.
    public init(_ key: Curve25519.Signing.PublicKey) {
        certificateKey = Certificate.PublicKey(key)
    }

    /// A key from its DER `SubjectPublicKeyInfo`.
    /// - Throws: ``AttestationError`` with code ``AttestationError/Code/keyMismatch`` when the bytes are not a
    ///   supported key.
    public init(subjectPublicKeyInfoDER bytes: [UInt8]) throws(AttestationError) {
        do {
            certificateKey = try Certificate.PublicKey(derEncoded: bytes)
        } catch {
            throw AttestationError(.keyMismatch, "not a supported SubjectPublicKeyInfo: \(error)")
        }
    }
}
