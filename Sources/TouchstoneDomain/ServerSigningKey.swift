import Crypto
import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage
import _CryptoExtras

/// The algorithms of the server's own keys.
package enum ServerKeyAlgorithm: String, Sendable, Hashable, CaseIterable {
    case es256 = "ES256"
    case rs256 = "RS256"
}

/// One of the server's private keys, with the one algorithm it signs with.
enum ServerSigningKey {
    case es256(P256.Signing.PrivateKey)
    case rs256(_RSA.Signing.PrivateKey)

    /// The RSA modulus of new keys.
    static let rsaKeySize = _RSA.Signing.KeySize.bits2048

    /// The key a stored record holds.
    /// - Throws: when the record's algorithm or key is not one the server makes.
    init(_ record: ServerKeyRecord) throws {
        guard let raw = Base64URL.decode(record.privateKey), let algorithm = ServerKeyAlgorithm(rawValue: record.algorithm)
        else { throw ConfigurationError("server key \(record.kid) is not readable") }
        switch algorithm {
        case .es256: self = .es256(try P256.Signing.PrivateKey(rawRepresentation: raw))
        case .rs256: self = .rs256(try _RSA.Signing.PrivateKey(derRepresentation: raw))
        }
    }

    /// A new key of `algorithm`, from swift-crypto's own generator (BoringSSL's), not the services' ``RandomSource``:
    /// swift-crypto makes an RSA key only from its own randomness, and a P-256 key from ours would mean choosing the
    /// scalar by hand. Nothing a test pins depends on a key's bits: tests verify with the key the JWKS publishes.
    static func generate(_ algorithm: ServerKeyAlgorithm) throws -> ServerSigningKey {
        switch algorithm {
        case .es256: .es256(P256.Signing.PrivateKey())
        case .rs256: .rs256(try _RSA.Signing.PrivateKey(keySize: rsaKeySize))
        }
    }

    var algorithm: ServerKeyAlgorithm {
        switch self {
        case .es256: .es256
        case .rs256: .rs256
        }
    }

    /// What the database keeps: P-256's raw representation, RSA's DER.
    var privateRepresentation: Data {
        switch self {
        case .es256(let key): key.rawRepresentation
        case .rs256(let key): key.derRepresentation
        }
    }

    /// The JWS signature of `input`: ES256 as raw `r‖s`, RS256 as PKCS #1 v1.5 with SHA-256 (RFC 7518 §3.3).
    func signature(for input: [UInt8]) throws -> Data {
        switch self {
        case .es256(let key): try key.signature(for: input).rawRepresentation
        case .rs256(let key): try key.signature(for: input, padding: .insecurePKCS1v1_5).rawRepresentation
        }
    }

    /// The public key as the JWKS publishes it.
    func publicJWK(kid: String) throws -> JWKSet.Key {
        let jwk = try publicJWKForThumbprint()
        switch self {
        case .es256:
            return JWKSet.Key(
                kty: "EC", crv: "P-256", x: jwk.x ?? "", y: jwk.y ?? "", kid: kid, alg: algorithm.rawValue, use: "sig")
        case .rs256:
            return JWKSet.Key(n: jwk.n ?? "", e: jwk.e ?? "", kid: kid, alg: algorithm.rawValue, use: "sig")
        }
    }

    /// The public key's required members, from which its RFC 7638 thumbprint (its `kid`) is computed.
    func publicJWKForThumbprint() throws -> PublicJWK {
        switch self {
        case .es256(let key):
            let point = key.publicKey.rawRepresentation
            return PublicJWK(
                kty: "EC", crv: "P-256", x: Base64URL.encode(point.prefix(32)), y: Base64URL.encode(point.suffix(32)))
        case .rs256(let key):
            let primitives = try key.publicKey.getKeyPrimitives()
            return PublicJWK(kty: "RSA", n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
        }
    }
}
