import Crypto
import Foundation
import JWTKit
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
    private let signer: JWTKeyCollection

    /// Wraps a private key.
    /// - Throws: ``KeyError`` for an RSA key under 2048 bits.
    public init(_ material: Material) async throws {
        self.material = material
        let signer = JWTKeyCollection()
        let jwk: PublicJWK
        switch material {
        case .p256(let key):
            let raw = key.publicKey.rawRepresentation
            jwk = PublicJWK(
                kty: "EC", crv: "P-256", x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32)))
            await signer.add(ecdsa: try ES256PrivateKey(backing: key))
        case .ed25519(let key):
            jwk = PublicJWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(key.publicKey.rawRepresentation))
            await signer.add(eddsa: EdDSA.PrivateKey(backing: key))
        case .rsa(let key):
            let primitives = try key.publicKey.getKeyPrimitives()
            jwk = PublicJWK(kty: "RSA", n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
            do {
                await signer.add(rsa: try Insecure.RSA.PrivateKey(backing: key), digestAlgorithm: .sha256)
            } catch {
                throw KeyError("RSA keys must have at least 2048 bits")
            }
        }
        self.publicKey = try DevicePublicKey(jwk: jwk)
        self.signer = signer
    }

    /// A new random P-256 key (the default for devices).
    public static func generateP256() async throws -> DeviceSigningKey {
        try await DeviceSigningKey(.p256(P256.Signing.PrivateKey()))
    }

    /// Signs claims as a compact JWS with `alg` of this key, `kid` its thumbprint and `typ` of the claims.
    public func sign<Claims: DeviceTokenClaims>(_ claims: Claims) async throws -> String {
        let header: JWTHeader = ["typ": .string(Claims.tokenType.rawValue)]
        return try await signer.sign(
            DeviceTokenPayload(claims), kid: JWKIdentifier(string: publicKey.thumbprint), header: header)
    }
}

/// Adapts device-token claims to jwt-kit's payload protocol, for signing; verification does not use jwt-kit
/// (``DevicePublicKey/verify(_:as:issuer:rules:now:)``).
struct DeviceTokenPayload<Claims: DeviceTokenClaims>: JWTPayload {
    var claims: Claims

    init(_ claims: Claims) {
        self.claims = claims
    }

    init(from decoder: any Decoder) throws {
        claims = try Claims(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try claims.encode(to: encoder)
    }

    /// Never called: these tokens are verified by ``DevicePublicKey/verify(_:as:issuer:rules:now:)``.
    func verify(using _: some JWTAlgorithm) async throws {}
}
