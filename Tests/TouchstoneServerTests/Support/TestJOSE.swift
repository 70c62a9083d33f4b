import Crypto
import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import _CryptoExtras

/// A client's or DPoP holder's key in the tests, and compact JWSs signed with it — or forged around it (`alg:none`,
/// HS256 keyed with the public key, another key's signature).
struct TestJOSEKey: Sendable {
    enum Material: Sendable {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    let material: Material

    static func p256() -> TestJOSEKey { TestJOSEKey(material: .p256(P256.Signing.PrivateKey())) }
    static func ed25519() -> TestJOSEKey { TestJOSEKey(material: .ed25519(Curve25519.Signing.PrivateKey())) }
    static func rsa() throws -> TestJOSEKey { TestJOSEKey(material: .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048))) }

    /// The public JWK's members.
    var publicJWK: [String: String] {
        switch material {
        case .p256(let key):
            let raw = key.publicKey.rawRepresentation
            return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(raw.prefix(32)), "y": Base64URL.encode(raw.suffix(32))]
        case .ed25519(let key):
            return ["kty": "OKP", "crv": "Ed25519", "x": Base64URL.encode(key.publicKey.rawRepresentation)]
        case .rsa(let key):
            let primitives = try? key.publicKey.getKeyPrimitives()
            return [
                "kty": "RSA", "n": Base64URL.encode(primitives?.modulus ?? Data()),
                "e": Base64URL.encode(primitives?.publicExponent ?? Data()),
            ]
        }
    }

    /// The same JWK with its private member `d` (what a DPoP proof must never carry, nor a JWK Set hold).
    var privateJWK: [String: String] {
        var jwk = publicJWK
        switch material {
        case .p256(let key): jwk["d"] = Base64URL.encode(key.rawRepresentation)
        case .ed25519(let key): jwk["d"] = Base64URL.encode(key.rawRepresentation)
        case .rsa: jwk["d"] = Base64URL.encode(Data(repeating: 7, count: 256))
        }
        return jwk
    }

    /// The RFC 7638 thumbprint.
    var thumbprint: String { Thumbprint.of(try! JSONDecoder().decode(PublicJWK.self, from: JSONSerialization.data(withJSONObject: publicJWK))) }

    /// The algorithm this key signs with by default.
    var algorithm: String {
        switch material {
        case .p256: "ES256"
        case .ed25519: "EdDSA"
        case .rsa: "PS256"
        }
    }

    /// A JWK Set file holding this key's public half (with `kid` when given).
    func jwksFile(kid: String? = nil) throws -> Data {
        var jwk: [String: Any] = publicJWK
        if let kid { jwk["kid"] = kid }
        return try JSONSerialization.data(withJSONObject: ["keys": [jwk]])
    }

    /// A compact JWS of `claims` under `header` (alg defaults to this key's), signed with `alg`: ES256, EdDSA, PS256,
    /// RS256, `HS256` keyed with the public JWK's JSON (the classic confusion), or `none` (no signature).
    func sign(_ claims: [String: Any], header: [String: Any] = [:], alg: String? = nil) throws -> String {
        var fullHeader = header
        let algorithm = alg ?? self.algorithm
        fullHeader["alg"] = algorithm
        let input =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: fullHeader, options: .sortedKeys)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: .sortedKeys))
        let data = Data(input.utf8)
        let signature: Data
        switch (algorithm, material) {
        case ("none", _):
            signature = Data()
        case ("HS256", _):
            let secret = SymmetricKey(data: try JSONSerialization.data(withJSONObject: publicJWK, options: .sortedKeys))
            signature = Data(HMAC<SHA256>.authenticationCode(for: data, using: secret))
        case (_, .p256(let key)):
            signature = try key.signature(for: data).rawRepresentation
        case (_, .ed25519(let key)):
            signature = try key.signature(for: data)
        case ("RS256", .rsa(let key)):
            signature = try key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation
        case (_, .rsa(let key)):
            signature = try key.signature(for: data, padding: .PSS).rawRepresentation
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// A DPoP proof (RFC 9449 §4.2) of a request, with `changes` to its claims (a `nil` value removes one) and header.
    func dpopProof(
        _ method: String, _ path: String, now: Date, accessToken: String? = nil, changes: [String: Any?] = [:],
        header: [String: Any]? = nil, alg: String? = nil
    ) throws -> String {
        var claims: [String: Any] = [
            "jti": UUID().uuidString, "htm": method, "htu": Harness.issuer + path, "iat": Int(now.timeIntervalSince1970),
        ]
        if let accessToken { claims["ath"] = SecretDigest.sha256(accessToken) }
        for (name, value) in changes { claims[name] = value }
        return try sign(claims, header: header ?? ["typ": "dpop+jwt", "jwk": publicJWK], alg: alg)
    }

    /// A client assertion (RFC 7523) of `clientId` for the token endpoint, with `changes` to its claims.
    func clientAssertion(
        _ clientId: String, now: Date, changes: [String: Any?] = [:], header: [String: Any] = [:], alg: String? = nil
    ) throws -> String {
        let iat = Int(now.timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": clientId, "sub": clientId, "aud": Harness.issuer + "/oauth2/token", "iat": iat, "exp": iat + 60,
            "jti": UUID().uuidString,
        ]
        for (name, value) in changes { claims[name] = value }
        return try sign(claims, header: header, alg: alg)
    }
}
