import Crypto
import Foundation
import JWTKit
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport
import _CryptoExtras

/// The signature of a device token, checked with the registered key's algorithm only.
@Suite struct DeviceTokenSignatureTests {
    @Test(arguments: TestDevice.Algorithm.allCases)
    func signedTokenVerifies(_ algorithm: TestDevice.Algorithm) async throws {
        let fixture = try await TokenFixture(algorithm)
        let claims = TokenFixture.claims()
        try fixture.expectAccepted(try await fixture.key.sign(claims), claims: claims)
    }

    /// The hand-built tokens the other tests tamper with verify when left alone.
    @Test(arguments: TestDevice.Algorithm.allCases)
    func handBuiltTokenVerifies(_ algorithm: TestDevice.Algorithm) async throws {
        let fixture = try await TokenFixture(algorithm)
        let claims = TokenFixture.claims()
        try fixture.expectAccepted(try fixture.forge(claims: claims), claims: claims)
    }

    @Test(arguments: TestDevice.Algorithm.allCases)
    func signingKeyWritesAlgKidAndTyp(_ algorithm: TestDevice.Algorithm) async throws {
        let fixture = try await TokenFixture(algorithm)
        let compact = try await fixture.key.sign(TokenFixture.claims())
        let header = try #require(Base64URL.decode(CompactJWS.parts(compact)[0]))
        let members = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
        #expect(members["alg"] as? String == fixture.algorithm)
        #expect(members["kid"] as? String == fixture.key.publicKey.thumbprint)
        #expect(members["typ"] as? String == "touchstone-proof+jwt")
        #expect(members["crit"] == nil)
    }

    @Test(arguments: TestDevice.Algorithm.allCases)
    func signatureByAnotherKeyOfTheSameTypeIsRefused(_ algorithm: TestDevice.Algorithm) async throws {
        let fixture = try await TokenFixture(algorithm)
        let other = try await TestDevice.key(algorithm)
        // The other key signs a header that names this fixture's key.
        try fixture.expectRefused(try fixture.forge(signedBy: other))
    }

    @Test func signatureByAKeyOfAnotherTypeIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        for algorithm in [TestDevice.Algorithm.ed25519, .rsa2048] {
            let other = try await TestDevice.key(algorithm)
            var header = fixture.header
            header.alg = other.publicKey.algorithm.rawValue
            try fixture.expectRefused(try fixture.forge(header, signedBy: other))
            try fixture.expectRefused(try fixture.forge(signedBy: other))
        }
    }

    @Test(arguments: TestDevice.Algorithm.allCases)
    func flippedPayloadByteIsRefused(_ algorithm: TestDevice.Algorithm) async throws {
        let fixture = try await TokenFixture(algorithm)
        let claims = TokenFixture.claims(nonce: "nonce-A")
        let compact = try await fixture.key.sign(claims)
        try fixture.expectAccepted(compact, claims: claims)
        var parts = CompactJWS.parts(compact)
        let payload = try #require(Base64URL.decode(parts[1]))
        var bytes = [UInt8](payload)
        let index = try #require(bytes.firstIndex(of: UInt8(ascii: "A")))
        bytes[index] ^= 0x03  // "A" becomes "B": still valid JSON, another nonce
        #expect(try JSONDecoder().decode(ProofClaims.self, from: Data(bytes)).nonce == "nonce-B")
        parts[1] = Base64URL.encode(bytes)
        try fixture.expectRefused(parts.joined(separator: "."))
    }

    @Test(arguments: TestDevice.Algorithm.allCases)
    func flippedSignatureByteIsRefused(_ algorithm: TestDevice.Algorithm) async throws {
        let fixture = try await TokenFixture(algorithm)
        var parts = CompactJWS.parts(try await fixture.key.sign(TokenFixture.claims()))
        var signature = [UInt8](try #require(Base64URL.decode(parts[2])))
        signature[signature.count / 2] ^= 0x01
        parts[2] = Base64URL.encode(signature)
        try fixture.expectRefused(parts.joined(separator: "."))
    }

    @Test func truncatedOrEmptySignatureIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        let parts = CompactJWS.parts(try await fixture.key.sign(TokenFixture.claims()))
        let signature = try #require(Base64URL.decode(parts[2]))
        for bad in [Data(), signature.dropLast(), signature + [0]] {
            try fixture.expectRefused(parts[0] + "." + parts[1] + "." + Base64URL.encode(bad))
        }
    }

    /// JWS writes an ES256 signature as r‖s (RFC 7518 §3.4); the same valid signature in DER is refused.
    @Test func derEncodedES256SignatureIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        let parts = CompactJWS.parts(try await fixture.key.sign(TokenFixture.claims()))
        let raw = try #require(Base64URL.decode(parts[2]))
        let der = try P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation
        try fixture.expectRefused(parts[0] + "." + parts[1] + "." + Base64URL.encode(der))
    }

    // MARK: alg: none

    @Test(arguments: ["none", "None", "NONE"])
    func unsecuredTokenIsRefused(_ alg: String) async throws {
        let fixture = try await TokenFixture(.p256)
        var header = fixture.header
        header.alg = alg
        let unsecured = try CompactJWS.make(header: header.json, payload: CompactJWS.payload(TokenFixture.claims())) { _ in
            Data()
        }
        #expect(unsecured.hasSuffix("."))
        try fixture.expectRefused(unsecured)
    }

    @Test func unsecuredTokenKeepingAValidSignatureIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        let parts = CompactJWS.parts(try await fixture.key.sign(TokenFixture.claims()))
        var header = fixture.header
        header.alg = "none"
        try fixture.expectRefused(Base64URL.encode(Array(header.json.utf8)) + "." + parts[1] + "." + parts[2])
    }

    /// RFC 7515 A.5: `{"alg":"none"}`, no `kid`, empty signature.
    @Test func rfc7515AppendixA5IsRefused() throws {
        let compact = try Vectors.text("jose/rfc7515_A.5.jwsc")
        #expect(compact.hasPrefix("eyJhbGciOiJub25lIn0.") && compact.hasSuffix("."))
        #expect(throws: DeviceTokenError.self) { try UnverifiedDeviceToken(compact) }
    }

    // MARK: HS256 with the public key as secret

    /// Every public form of the key an attacker could use as an HMAC secret.
    static func publicSecrets(_ key: DeviceSigningKey) throws -> [Data] {
        let jwkJSON = try JSONEncoder().encode(key.publicKey.jwk)
        let common = [jwkJSON, Data(key.publicKey.thumbprint.utf8)]
        switch key.material {
        case .p256(let k):
            let pub = k.publicKey
            return common + [
                pub.x963Representation, pub.rawRepresentation, pub.derRepresentation, Data(pub.pemRepresentation.utf8),
            ]
        case .ed25519(let k):
            return common + [k.publicKey.rawRepresentation]
        case .rsa(let k):
            let pub = k.publicKey
            return common + [pub.derRepresentation, pub.pkcs1DERRepresentation, Data(pub.pemRepresentation.utf8)]
        }
    }

    @Test(arguments: TestDevice.Algorithm.allCases)
    func hmacWithThePublicKeyAsSecretIsRefused(_ algorithm: TestDevice.Algorithm) async throws {
        let fixture = try await TokenFixture(algorithm)
        for secret in try Self.publicSecrets(fixture.key) {
            for alg in ["HS256", fixture.algorithm] {
                var header = fixture.header
                header.alg = alg
                let forged = try CompactJWS.make(header: header.json, payload: CompactJWS.payload(TokenFixture.claims())) {
                    Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: secret)))
                }
                try fixture.expectRefused(forged)
            }
        }
    }

    /// The forged token is a genuine HS256 JWT: a verifier that let the header pick the algorithm would accept it.
    @Test func algorithmConfusionTokenIsAValidHS256Token() async throws {
        let key = P256.Signing.PrivateKey()
        let fixture = TokenFixture(key: try await DeviceSigningKey(.p256(key)))
        let pem = key.publicKey.pemRepresentation
        var header = fixture.header
        header.alg = "HS256"
        let forged = try CompactJWS.make(header: header.json, payload: CompactJWS.payload(TokenFixture.claims())) {
            Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: Data(pem.utf8))))
        }
        let naive = await JWTKeyCollection().add(hmac: HMACKey(from: pem), digestAlgorithm: .sha256)
        let payload = try await naive.verify(forged, as: IssuerOnly.self)
        #expect(payload.iss == TokenFixture.issuer)
        try fixture.expectRefused(forged)
    }

    struct IssuerOnly: JWTPayload {
        var iss: String
        func verify(using _: some JWTAlgorithm) throws {}
    }
}
