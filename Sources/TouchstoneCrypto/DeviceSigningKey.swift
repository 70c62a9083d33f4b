import Crypto
import Foundation
import TouchstoneProtocol
import _CryptoExtras

/// A device's private key, held by the SDK (and by tests): signs device tokens with its one algorithm.
public struct DeviceSigningKey: Sendable {
    public enum Material: Sendable {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    public let material: Material
    /// The public half, as registered with the server.
    public let publicKey: DevicePublicKey

    /// Wraps a private key.
    /// - Throws: ``KeyError`` for an RSA key under 2048 bits.
    public init(_ material: Material) async throws {
        self.material = material
        let jwk: PublicJWK
        switch material {
        case .p256(let key):
            let raw = key.publicKey.rawRepresentation
            jwk = PublicJWK(
                kty: "EC", crv: "P-256", x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32)))
        case .ed25519(let key):
            jwk = PublicJWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(key.publicKey.rawRepresentation))
        case .rsa(let key):
            let primitives = try key.publicKey.getKeyPrimitives()
            jwk = PublicJWK(kty: "RSA", n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
        }
        // The public key's own checks: RSA under 2048 bits is refused here.
        self.publicKey = try DevicePublicKey(jwk: jwk)
    }

    /// A new random P-256 key (the default for devices).
    public static func generateP256() async throws -> DeviceSigningKey {
        try await DeviceSigningKey(.p256(P256.Signing.PrivateKey()))
    }

    /// Signs claims as a compact JWS with `alg` of this key, `kid` its thumbprint and `typ` of the claims, through the
    /// one serializer of every token (``CompactJWS/serialize(encodedHeader:payload:sign:)``).
    public func sign<Claims: DeviceTokenClaims>(_ claims: Claims) async throws -> String {
        try CompactJWS.serialize(
            encodedHeader: try publicKey.encodedHeader(for: Claims.self), payload: Array(try JSONEncoder().encode(claims)),
            sign: signature(of:))
    }

    /// This key's JWS signature of `signingInput`: ES256 (r‖s over SHA-256), EdDSA, or RS256 (PKCS#1 v1.5, SHA-256).
    private func signature(of signingInput: [UInt8]) throws -> [UInt8] {
        switch material {
        case .p256(let key): Array(try key.signature(for: signingInput).rawRepresentation)
        case .ed25519(let key): Array(try key.signature(for: signingInput))
        case .rsa(let key): Array(try key.signature(for: signingInput, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }
}
