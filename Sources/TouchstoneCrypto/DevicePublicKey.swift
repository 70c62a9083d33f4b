import Crypto
import Foundation
import TouchstoneProtocol
import _CryptoExtras

/// A device's registered public key. The key fixes the algorithm: a token header never chooses the verifier.
///
/// ES256 (P-256), EdDSA (Ed25519) and RS256 (at least 2048 bits) are accepted; nothing else.
public struct DevicePublicKey: Sendable {
    /// The JWS algorithm this key verifies, and the only one it verifies.
    public let algorithm: DeviceKeyAlgorithm
    /// The key in canonical JWK form (only the members RFC 7638 hashes).
    public let jwk: PublicJWK
    /// The RFC 7638 SHA-256 thumbprint, base64url: the key's `kid`.
    public let thumbprint: String
    private let backing: Backing

    private enum Backing: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    /// Parses and validates a public JWK.
    /// - Throws: ``KeyError`` when the key is not a valid P-256, Ed25519 or RSA-2048+ public key.
    public init(jwk: PublicJWK) throws {
        guard jwk.d == nil else { throw KeyError("a private key was sent") }
        switch (jwk.kty, jwk.crv) {
        case ("EC", "P-256"):
            let x = try Self.bytes(jwk.x, "x", count: 32)
            let y = try Self.bytes(jwk.y, "y", count: 32)
            let key: P256.Signing.PublicKey
            do {
                key = try P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            } catch {
                throw KeyError("the point is not on P-256")
            }
            backing = .p256(key)
            algorithm = .es256
            self.jwk = PublicJWK(kty: "EC", crv: "P-256", x: Base64URL.encode(x), y: Base64URL.encode(y))
        case ("OKP", "Ed25519"):
            let x = try Self.bytes(jwk.x, "x", count: 32)
            let key: Curve25519.Signing.PublicKey
            do {
                key = try Curve25519.Signing.PublicKey(rawRepresentation: x)
            } catch {
                throw KeyError("not an Ed25519 public key")
            }
            backing = .ed25519(key)
            algorithm = .edDSA
            self.jwk = PublicJWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(x))
        case ("RSA", nil):
            let n = Self.minimal(try Self.bytes(jwk.n, "n", count: nil))
            let e = Self.minimal(try Self.bytes(jwk.e, "e", count: nil))
            guard let top = n.first, n.count * 8 - top.leadingZeroBitCount >= 2048 else {
                throw KeyError("RSA keys must have at least 2048 bits")
            }
            guard e.count <= 4, e.last.map({ $0 & 1 == 1 }) == true, e != [1] else {
                throw KeyError("unusable RSA exponent")
            }
            let key: _RSA.Signing.PublicKey
            do {
                key = try _RSA.Signing.PublicKey(n: n, e: e)
            } catch {
                throw KeyError("not an RSA public key")
            }
            backing = .rsa(key)
            algorithm = .rs256
            self.jwk = PublicJWK(kty: "RSA", n: Base64URL.encode(n), e: Base64URL.encode(e))
        default:
            throw KeyError("unsupported key type; use EC P-256, OKP Ed25519 or RSA")
        }
        self.thumbprint = Thumbprint.of(self.jwk)
    }

    /// Whether `signature` is this key's JWS signature of `signingInput`, with this key's algorithm: ES256 (r‖s over
    /// SHA-256, RFC 7518 §3.4), EdDSA (RFC 8037 §3.1) or RS256 (RSASSA-PKCS1-v1_5 over SHA-256, RFC 7518 §3.3).
    /// The key as DER `SubjectPublicKeyInfo`: what an attestation certificate holds for it.
    public var subjectPublicKeyInfoDER: [UInt8] {
        switch backing {
        case .p256(let key): Array(key.derRepresentation)
        case .ed25519(let key): Self.ed25519SPKIPrefix + Array(key.rawRepresentation)
        case .rsa(let key): Array(key.derRepresentation)
        }
    }

    /// `SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING (32 bytes) }` up to the key's bytes (RFC 8410).
    private static let ed25519SPKIPrefix: [UInt8] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]

    func isValidSignature(_ signature: [UInt8], for signingInput: [UInt8]) -> Bool {
        switch backing {
        case .p256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: SHA256.hash(data: signingInput))
        case .ed25519(let key):
            return key.isValidSignature(signature, for: signingInput)
        case .rsa(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signingInput),
                padding: .insecurePKCS1v1_5)
        }
    }

    private static func bytes(_ member: String?, _ name: String, count: Int?) throws -> [UInt8] {
        guard let member, let data = Base64URL.decode(member), !data.isEmpty else {
            throw KeyError("member \(name) is missing or not base64url")
        }
        if let count, data.count != count {
            throw KeyError("member \(name) must be \(count) bytes")
        }
        return [UInt8](data)
    }

    private static func minimal(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.drop(while: { $0 == 0 }))
    }
}

extension DevicePublicKey: Equatable {
    /// Two keys are the same key when their canonical JWKs are: the JWK fixes the algorithm and the key material.
    public static func == (lhs: DevicePublicKey, rhs: DevicePublicKey) -> Bool {
        lhs.jwk == rhs.jwk
    }
}

/// The JWS algorithms a device key may use.
public enum DeviceKeyAlgorithm: String, Sendable, Codable {
    case es256 = "ES256"
    case edDSA = "EdDSA"
    case rs256 = "RS256"
}

/// A public key that cannot be registered; maps to 400 `invalid_key`.
public struct KeyError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
