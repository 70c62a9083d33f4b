import Crypto
import X509
import _CryptoExtras

/// A public key ready to verify signatures, in one of the types this package supports.
enum VerificationKey: Sendable {
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)
    case p521(P521.Signing.PublicKey)
    case ed25519(Curve25519.Signing.PublicKey)
    case rsa(_RSA.Signing.PublicKey)

    /// The key of a certificate, if it has the type `algorithm` needs (P-256 for ES256, RSA ≥ 2048 bits for RS256, …).
    init?(certificateKey: Certificate.PublicKey, for algorithm: COSEAlgorithm) {
        switch algorithm {
        case .es256:
            guard let key = P256.Signing.PublicKey(certificateKey) else { return nil }
            self = .p256(key)
        case .es384:
            guard let key = P384.Signing.PublicKey(certificateKey) else { return nil }
            self = .p384(key)
        case .es512:
            guard let key = P521.Signing.PublicKey(certificateKey) else { return nil }
            self = .p521(key)
        case .edDSA:
            guard let key = Curve25519.Signing.PublicKey(certificateKey) else { return nil }
            self = .ed25519(key)
        case .rs256:
            guard let key = _RSA.Signing.PublicKey(certificateKey), key.keySizeInBits >= 2048 else { return nil }
            self = .rsa(key)
        default:
            return nil
        }
    }

    /// Verifies `signature` over `message` with `algorithm`, which must match the key type.
    ///
    /// ECDSA signatures are ASN.1 DER (WebAuthn §6.5.5); RSA signatures are the raw PKCS#1 v1.5 value; Ed25519
    /// signatures are the 64-byte RFC 8032 value.
    func isValidSignature(_ signature: [UInt8], for message: [UInt8], algorithm: COSEAlgorithm) -> Bool {
        switch (self, algorithm) {
        case (.p256(let key), .es256):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case (.p384(let key), .es384):
            guard let parsed = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case (.p521(let key), .es512):
            guard let parsed = try? P521.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case (.ed25519(let key), .edDSA):
            return key.isValidSignature(signature, for: message)
        case (.rsa(let key), .rs256):
            let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
            return key.isValidSignature(parsed, for: message, padding: .insecurePKCS1v1_5)
        default:
            return false
        }
    }

    /// A canonical byte form, equal for equal keys: the uncompressed point, the Ed25519 key, or the PKCS#1 key.
    var canonicalBytes: [UInt8] {
        switch self {
        case .p256(let key): [0x01] + Array(key.x963Representation)
        case .p384(let key): [0x02] + Array(key.x963Representation)
        case .p521(let key): [0x03] + Array(key.x963Representation)
        case .ed25519(let key): [0x04] + Array(key.rawRepresentation)
        case .rsa(let key): [0x05] + Array(key.pkcs1DERRepresentation)
        }
    }
}
