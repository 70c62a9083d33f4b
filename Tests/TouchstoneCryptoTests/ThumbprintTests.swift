import Crypto
import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

/// RFC 7638 SHA-256 thumbprints: the `kid` of every device key.
@Suite struct ThumbprintTests {
    /// The RFC 7638 §3.1 RSA key, as `PublicJWK` reads it (its `alg` and `kid` members are ignored).
    static func rfc7638Key() throws -> PublicJWK {
        try Vectors.json("jose/rfc7638_3.1.jwk")
    }

    /// SHA-256 of exactly `json`, base64url, computed here without `Thumbprint`.
    static func sha256(_ json: String) -> String {
        Data(SHA256.hash(data: Data(json.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func rfc7638Section3_1() async throws {
        let expected = try Vectors.text("jose/rfc7638_3.1.thp")
        #expect(expected == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        let jwk = try Self.rfc7638Key()
        #expect(Thumbprint.of(jwk) == expected)
        let key = try DevicePublicKey(jwk: jwk)
        #expect(key.thumbprint == expected)
        #expect(key.algorithm == .rs256)
    }

    @Test func rfc8037AppendixA3() async throws {
        let vector: RFC8037Vector = try Vectors.json("jose/rfc8037_A4.json")
        #expect(vector.thumbprint_sha256 == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
        let jwk = PublicJWK(kty: vector.jwk.kty, crv: vector.jwk.crv, x: vector.jwk.x)
        #expect(Thumbprint.of(jwk) == vector.thumbprint_sha256)
        let key = try DevicePublicKey(jwk: jwk)
        #expect(key.thumbprint == vector.thumbprint_sha256)
        #expect(key.algorithm == .edDSA)
    }

    @Test func leadingZeroBytesInRSAModulusAndExponentDoNotChangeIt() async throws {
        let vector = try Self.rfc7638Key()
        let n = try #require(vector.n.flatMap(Base64URL.decode))
        let e = try #require(vector.e.flatMap(Base64URL.decode))
        let padded = PublicJWK(kty: "RSA", n: Base64URL.encode([0] + n), e: Base64URL.encode([0] + e))
        #expect(padded.n != vector.n)
        let key = try DevicePublicKey(jwk: padded)
        #expect(key.thumbprint == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        #expect(key.jwk == PublicJWK(kty: "RSA", n: vector.n, e: vector.e))
    }

    @Test func membersOtherThanTheRequiredOnesDoNotChangeIt() async throws {
        let vector = try Self.rfc7638Key()
        let noisy = """
            {"use":"sig","key_ops":["verify"],"x5t":"AAAA","kid":"someone-else","alg":"HS256",
             "e":"\(vector.e ?? "")","n":"\(vector.n ?? "")","kty":"RSA","crv":null,"x":"AQAB","y":"AQAB"}
            """
        // `x` and `y` are PublicJWK members, but not ones RFC 7638 hashes for RSA.
        let jwk = try JSONDecoder().decode(PublicJWK.self, from: Data(noisy.utf8))
        let key = try DevicePublicKey(jwk: jwk)
        #expect(key.thumbprint == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        #expect(key.jwk == PublicJWK(kty: "RSA", n: vector.n, e: vector.e))
    }

    @Test func extraMembersOnECAndOKPKeysDoNotChangeIt() async throws {
        for algorithm in [TestDevice.Algorithm.p256, .ed25519] {
            let clean = try await TestDevice.key(algorithm).publicKey
            var noisy = clean.jwk
            noisy.n = "AQAB"
            noisy.e = "AQAB"
            if algorithm == .ed25519 { noisy.y = clean.jwk.x }
            let key = try DevicePublicKey(jwk: noisy)
            #expect(key.thumbprint == clean.thumbprint)
            #expect(key.jwk == clean.jwk)
        }
    }

    @Test func ecThumbprintHashesCrvKtyXYInOrder() async throws {
        // RFC 7515 A.3's P-256 key, its private member dropped.
        let vector: PublicJWK = try Vectors.json("jose/rfc7515_A.3.jwk")
        let jwk = PublicJWK(kty: "EC", crv: "P-256", x: vector.x, y: vector.y)
        let expected = Self.sha256(
            #"{"crv":"P-256","kty":"EC","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#
        )
        #expect(Thumbprint.of(jwk) == expected)
        #expect(try DevicePublicKey(jwk: jwk).thumbprint == expected)
    }

    @Test func generatedKeysUseTheirCanonicalJWK() async throws {
        let p256 = try await TestDevice.key(.p256).publicKey
        let x = try #require(p256.jwk.x)
        let y = try #require(p256.jwk.y)
        #expect(p256.thumbprint == Self.sha256(#"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#))

        let ed25519 = try await TestDevice.key(.ed25519).publicKey
        let edX = try #require(ed25519.jwk.x)
        #expect(ed25519.thumbprint == Self.sha256(#"{"crv":"Ed25519","kty":"OKP","x":"\#(edX)"}"#))
    }

    @Test func differentKeysHaveDifferentThumbprints() async throws {
        let a = try await TestDevice.key(.p256).publicKey
        let b = try await TestDevice.key(.p256).publicKey
        #expect(a.thumbprint != b.thumbprint)
        #expect(Base64URL.decode(a.thumbprint)?.count == 32)
    }
}
