import Crypto
import TouchstoneProtocol
import _CryptoExtras

/// A public key a compact JWS may be verified with, and the algorithms it verifies: the key decides, never the
/// token's header. A P-256 key verifies ES256, an Ed25519 key EdDSA, an RSA key (at least 2048 bits) the RSA
/// algorithms its use allows (PS256, RS256).
public struct JWSKey: Sendable {
    /// The key, validated, with its canonical JWK and RFC 7638 thumbprint.
    public let publicKey: DevicePublicKey
    /// The algorithms this key verifies; never empty.
    public let algorithms: Set<JWSAlgorithm>
    /// The RSA key for PS256, when the key is RSA and PS256 is allowed.
    private let pss: _RSA.Signing.PublicKey?

    /// - Parameters:
    ///   - publicKey: the key.
    ///   - rsaAlgorithms: what an RSA key may verify (PS256, RS256 or both); ignored for the other key types.
    /// - Throws: ``KeyError`` for an RSA key with no RSA algorithm allowed.
    public init(_ publicKey: DevicePublicKey, rsaAlgorithms: Set<JWSAlgorithm> = [.rs256]) throws {
        self.publicKey = publicKey
        switch publicKey.algorithm {
        case .es256:
            algorithms = [.es256]
            pss = nil
        case .edDSA:
            algorithms = [.edDSA]
            pss = nil
        case .rs256:
            algorithms = rsaAlgorithms.intersection([.ps256, .rs256])
            guard !algorithms.isEmpty else { throw KeyError("RSA keys are not accepted here") }
            pss = algorithms.contains(.ps256) ? try Self.rsaKey(publicKey.jwk) : nil
        }
    }

    /// Whether `signature` is this key's signature of `signingInput` under `algorithm`, one of ``algorithms``.
    func isValidSignature(_ signature: [UInt8], for signingInput: [UInt8], algorithm: JWSAlgorithm) -> Bool {
        guard algorithms.contains(algorithm) else { return false }
        if algorithm == .ps256, let pss {
            return pss.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signingInput),
                padding: .PSS)
        }
        return publicKey.isValidSignature(signature, for: signingInput)
    }

    private static func rsaKey(_ jwk: PublicJWK) throws -> _RSA.Signing.PublicKey {
        guard let n = jwk.n.flatMap(Base64URL.decode), let e = jwk.e.flatMap(Base64URL.decode) else {
            throw KeyError("not an RSA public key")
        }
        return try _RSA.Signing.PublicKey(n: n, e: e)
    }
}
