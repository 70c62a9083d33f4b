import Crypto
import _CryptoExtras

/// A credential public key in COSE_Key form (RFC 9052 §7), as WebAuthn carries it in attested credential data.
///
/// Accepted: EC2 P-256/ES256, P-384/ES384, P-521/ES512, OKP Ed25519/EdDSA, and RSA/RS256 with a modulus of at least
/// 2048 bits. The key must carry `alg` and no optional parameters beyond those its type requires (WebAuthn §6.5.1);
/// its `alg` alone decides how signatures are verified.
public struct COSEKey: Sendable {
    /// The key's parameters, as decoded.
    enum Parameters: Sendable, Hashable {
        case ec2(curve: Int, x: [UInt8], y: [UInt8])
        case okp(curve: Int, x: [UInt8])
        case rsa(n: [UInt8], e: [UInt8])
    }

    /// The algorithm the key is for.
    public let algorithm: COSEAlgorithm
    /// The canonical CBOR encoding, exactly as received (what a credential record stores).
    public let bytes: [UInt8]
    let parameters: Parameters
    let key: VerificationKey

    /// Decodes and validates a COSE_Key from its CTAP2 canonical CBOR encoding.
    /// - Throws: ``WebAuthnError`` with ``WebAuthnError/Code/unsupportedAlgorithm`` for algorithms this package
    ///   does not verify (Ed448 among them), ``WebAuthnError/Code/malformedCredentialPublicKey`` otherwise.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do {
            value = try CBORDecoder().decode(bytes)
        } catch {
            throw WebAuthnError(.malformedCredentialPublicKey, "COSE key: \(error)")
        }
        guard let map = value.map else { throw WebAuthnError(.malformedCredentialPublicKey, "COSE key is not a map") }
        try self.init(map: map, bytes: bytes)
    }

    /// Validates an already decoded COSE_Key whose encoding is `bytes`.
    init(map: CBORMap, bytes: [UInt8]) throws(WebAuthnError) {
        func fail(_ detail: String) -> WebAuthnError { WebAuthnError(.malformedCredentialPublicKey, detail) }
        guard let alg = map[int: 3]?.int else { throw fail("COSE key without an integer alg (3)") }
        let algorithm = COSEAlgorithm(rawValue: alg)
        guard algorithm.isSupported else { throw WebAuthnError(.unsupportedAlgorithm, "credential key algorithm \(algorithm)") }
        guard let kty = map[int: 1]?.int else { throw fail("COSE key without an integer kty (1)") }

        let labels: Set<Int>
        let parameters: Parameters
        let key: VerificationKey
        switch algorithm {
        case .es256, .es384, .es512:
            labels = [1, 3, -1, -2, -3]
            guard kty == 2 else { throw fail("\(algorithm) needs kty EC2 (2), not \(kty)") }
            let (curve, size): (Int, Int) = algorithm == .es256 ? (1, 32) : algorithm == .es384 ? (2, 48) : (3, 66)
            guard map[int: -1]?.int == curve else { throw fail("\(algorithm) needs crv \(curve)") }
            guard let x = map[int: -2]?.bytes, let y = map[int: -3]?.bytes else {
                throw fail("EC2 key needs byte-string x (-2) and y (-3); compressed points are not accepted")
            }
            guard x.count == size, y.count == size else { throw fail("EC2 coordinates must be \(size) bytes") }
            let point = [0x04] + x + y
            do {
                switch curve {
                case 1: key = .p256(try P256.Signing.PublicKey(x963Representation: point))
                case 2: key = .p384(try P384.Signing.PublicKey(x963Representation: point))
                default: key = .p521(try P521.Signing.PublicKey(x963Representation: point))
                }
            } catch {
                throw fail("EC2 point is not on the curve")
            }
            parameters = .ec2(curve: curve, x: x, y: y)
        case .edDSA:
            labels = [1, 3, -1, -2]
            guard kty == 1 else { throw fail("EdDSA needs kty OKP (1), not \(kty)") }
            guard let curve = map[int: -1]?.int else { throw fail("OKP key without crv (-1)") }
            if curve == 7 { throw WebAuthnError(.unsupportedAlgorithm, "EdDSA with Ed448 (crv 7)") }
            guard curve == 6 else { throw fail("EdDSA needs crv Ed25519 (6), not \(curve)") }
            guard let x = map[int: -2]?.bytes, x.count == 32 else { throw fail("Ed25519 key needs a 32-byte x (-2)") }
            do {
                key = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            } catch {
                throw fail("invalid Ed25519 key")
            }
            parameters = .okp(curve: curve, x: x)
        default:  // .rs256
            labels = [1, 3, -1, -2]
            guard kty == 3 else { throw fail("RS256 needs kty RSA (3), not \(kty)") }
            guard let n = map[int: -1]?.bytes, let e = map[int: -2]?.bytes, !n.isEmpty, !e.isEmpty else {
                throw fail("RSA key needs byte-string n (-1) and e (-2)")
            }
            do {
                key = .rsa(try _RSA.Signing.PublicKey(n: n, e: e))
            } catch {
                throw fail("RSA key is invalid or smaller than 2048 bits")
            }
            parameters = .rsa(n: n, e: e)
        }
        for entry in map.entries {
            guard let label = entry.key.int, labels.contains(label) else {
                throw fail("COSE key carries a parameter that WebAuthn does not allow: \(entry.key)")
            }
        }
        self.algorithm = algorithm
        self.bytes = bytes
        self.parameters = parameters
        self.key = key
    }

    /// Whether `signature` is this key's signature over `message`, with the key's own algorithm.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        key.isValidSignature(signature, for: message, algorithm: algorithm)
    }
}
