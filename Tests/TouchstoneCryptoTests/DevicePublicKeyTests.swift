import Crypto
import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport
import _CryptoExtras

/// Which public JWKs may be registered as device keys: P-256, Ed25519 and RSA of at least 2048 bits.
@Suite struct DevicePublicKeyTests {
    /// RFC 7515 A.3's P-256 key with its private member `d`.
    static func p256PrivateJWK() throws -> PublicJWK { try Vectors.json("jose/rfc7515_A.3.jwk") }

    /// RFC 7515 A.3's P-256 public key.
    static func p256JWK() throws -> PublicJWK {
        let jwk = try p256PrivateJWK()
        return PublicJWK(kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y)
    }

    /// RFC 8037 A.1's Ed25519 public key.
    static func ed25519JWK() throws -> PublicJWK {
        let vector: RFC8037Vector = try Vectors.json("jose/rfc8037_A4.json")
        return PublicJWK(kty: "OKP", crv: "Ed25519", x: vector.jwk.x)
    }

    /// RFC 7638 §3.1's 2048-bit RSA public key.
    static func rsaJWK() throws -> PublicJWK {
        let jwk: PublicJWK = try Vectors.json("jose/rfc7638_3.1.jwk")
        return PublicJWK(kty: "RSA", n: jwk.n, e: jwk.e)
    }

    static func expectRefused(_ jwk: PublicJWK, sourceLocation: SourceLocation = #_sourceLocation) async {
        await #expect(throws: KeyError.self, sourceLocation: sourceLocation) {
            try await DevicePublicKey(jwk: jwk)
        }
    }

    // MARK: Accepted

    @Test func acceptsP256() async throws {
        let key = try DevicePublicKey(jwk: Self.p256JWK())
        #expect(key.algorithm == .es256)
        #expect(key.jwk == (try Self.p256JWK()))
    }

    @Test func acceptsEd25519() async throws {
        let key = try DevicePublicKey(jwk: Self.ed25519JWK())
        #expect(key.algorithm == .edDSA)
        #expect(key.jwk == (try Self.ed25519JWK()))
    }

    @Test func acceptsRSA2048() async throws {
        let key = try DevicePublicKey(jwk: Self.rsaJWK())
        #expect(key.algorithm == .rs256)
        #expect(key.jwk == (try Self.rsaJWK()))
    }

    @Test(arguments: TestDevice.Algorithm.allCases)
    func acceptsGeneratedKeys(_ algorithm: TestDevice.Algorithm) async throws {
        let signing = try await TestDevice.key(algorithm)
        let key = try DevicePublicKey(jwk: signing.publicKey.jwk)
        let expected: DeviceKeyAlgorithm =
            switch algorithm {
            case .p256: .es256
            case .ed25519: .edDSA
            case .rsa2048: .rs256
            }
        #expect(key.algorithm == expected)
        #expect(key.thumbprint == signing.publicKey.thumbprint)
        #expect(key.jwk.d == nil)
    }

    @Test func acceptsRSA3072() async throws {
        let primitives = try _RSA.Signing.PrivateKey(keySize: .bits3072).publicKey.getKeyPrimitives()
        let key = try DevicePublicKey(
            jwk: PublicJWK(kty: "RSA", n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent)))
        #expect(key.algorithm == .rs256)
    }

    /// A real 2050-bit RSA key (OpenSSL `rsa_keygen_bits:2050`): at least 2048 bits, so PROTOCOL.md accepts it.
    /// Regression: the size check once required the top bit of the first modulus byte, refusing 2050-bit keys.
    @Test
    func acceptsRSAKeysWhoseSizeIsNotAMultipleOf8() async throws {
        let jwk: PublicJWK = try Vectors.json("rsa/rsa2050_public.jwk")
        let n = try #require(jwk.n.flatMap(Base64URL.decode))
        #expect(n.count == 257 && n.first == 0x02)  // 2050 bits
        let key = try DevicePublicKey(jwk: jwk)
        #expect(key.algorithm == .rs256)
    }

    @Test func keyAlgorithmIgnoresAnAlgMemberInTheJWK() async throws {
        // The key decides the algorithm; an `alg` member (even "none" or "HS256") is not read.
        for alg in ["none", "HS256", "RS256"] {
            let text = #"{"kty":"EC","crv":"P-256","alg":"\#(alg)","#
                + #""x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#
            let key = try DevicePublicKey(jwk: JSONDecoder().decode(PublicJWK.self, from: Data(text.utf8)))
            #expect(key.algorithm == .es256)
        }
    }

    // MARK: Refused: private keys

    @Test func refusesPrivateP256Key() async throws {
        let jwk = try Self.p256PrivateJWK()
        #expect(jwk.d != nil)
        await Self.expectRefused(jwk)
    }

    @Test func refusesPrivateEd25519Key() async throws {
        let vector: RFC8037Vector = try Vectors.json("jose/rfc8037_A4.json")
        var jwk = PublicJWK(kty: "OKP", crv: "Ed25519", x: vector.jwk.x)
        jwk.d = vector.jwk.d
        await Self.expectRefused(jwk)
    }

    @Test func refusesPrivateRSAKey() async throws {
        var jwk = try Self.rsaJWK()
        jwk.d = "AQAB"
        await Self.expectRefused(jwk)
    }

    // MARK: Refused: other key types and curves

    @Test(arguments: [
        PublicJWK(kty: "oct"),
        PublicJWK(kty: "none"),
        PublicJWK(kty: ""),
        PublicJWK(kty: "ec", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"),
        PublicJWK(kty: "EC", crv: "p-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"),
        PublicJWK(kty: "EC", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"),
        PublicJWK(kty: "EC", crv: "secp256k1", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"),
        PublicJWK(kty: "EC", crv: "P-384", x: Base64URL.encode([UInt8](repeating: 1, count: 48)), y: Base64URL.encode([UInt8](repeating: 2, count: 48))),
        PublicJWK(kty: "OKP", crv: "X25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"),
        PublicJWK(kty: "OKP", crv: "Ed448", x: Base64URL.encode([UInt8](repeating: 1, count: 57))),
        PublicJWK(kty: "OKP", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"),
    ])
    func refusesOtherKeyTypesAndCurves(_ jwk: PublicJWK) async {
        await Self.expectRefused(jwk)
    }

    @Test func refusesAnHMACKey() async throws {
        // RFC 7520 §3.5's symmetric key, as a client might send it.
        let text = #"{"kty":"oct","kid":"018c0ae5-4d9b-471b-bfd6-eef314bc7037","use":"sig","alg":"HS256","k":"hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg"}"#
        let jwk = try JSONDecoder().decode(PublicJWK.self, from: Data(text.utf8))
        await Self.expectRefused(jwk)
    }

    @Test func refusesRSAWithACurve() async throws {
        var jwk = try Self.rsaJWK()
        jwk.crv = "P-256"
        await Self.expectRefused(jwk)
    }

    // MARK: Refused: P-256 members

    @Test func refusesP256WithWrongCoordinateLengths() async throws {
        let good = try Self.p256JWK()
        let x = try #require(good.x.flatMap(Base64URL.decode))
        let y = try #require(good.y.flatMap(Base64URL.decode))
        for (badX, badY) in [
            (x.dropLast(), y), (x, y.dropLast()), ([0] + x, y), (x, [0] + y), (x + [0], y), (Data(), y), (x, Data()),
        ] {
            await Self.expectRefused(PublicJWK(kty: "EC", crv: "P-256", x: Base64URL.encode(badX), y: Base64URL.encode(badY)))
        }
    }

    @Test func refusesP256WithMissingOrMalformedMembers() async throws {
        let good = try Self.p256JWK()
        var missingX = good
        missingX.x = nil
        var missingY = good
        missingY.y = nil
        var standardAlphabet = good
        standardAlphabet.y = "x/FEzRu9m36HLN/tue659LNpXW6pCyStikYjKIWI5a0"
        var padded = good
        padded.x = (good.x ?? "") + "="
        for jwk in [missingX, missingY, standardAlphabet, padded] {
            await Self.expectRefused(jwk)
        }
    }

    @Test func refusesAPointNotOnP256() async throws {
        let good = try Self.p256JWK()
        var y = [UInt8](try #require(good.y.flatMap(Base64URL.decode)))
        y[31] ^= 0x01
        await Self.expectRefused(PublicJWK(kty: "EC", crv: "P-256", x: good.x, y: Base64URL.encode(y)))
        // The point at "infinity" spelled as zeros.
        let zero = Base64URL.encode([UInt8](repeating: 0, count: 32))
        await Self.expectRefused(PublicJWK(kty: "EC", crv: "P-256", x: zero, y: zero))
    }

    // MARK: Refused: Ed25519 members

    @Test func refusesEd25519WithWrongLengthOrMissingX() async throws {
        let x = try #require((try Self.ed25519JWK().x).flatMap(Base64URL.decode))
        for bad in [x.dropLast(), [0] + x, x + [0]] {
            await Self.expectRefused(PublicJWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(bad)))
        }
        await Self.expectRefused(PublicJWK(kty: "OKP", crv: "Ed25519"))
        await Self.expectRefused(PublicJWK(kty: "OKP", crv: "Ed25519", x: ""))
    }

    // MARK: Refused: RSA members

    @Test func refusesRSAUnder2048Bits() async throws {
        let primitives = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).publicKey.getKeyPrimitives()
        await Self.expectRefused(
            PublicJWK(kty: "RSA", n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent)))

        // 2047 bits: 256 bytes whose first byte has its top bit clear.
        var n = [UInt8](try #require((try Self.rsaJWK().n).flatMap(Base64URL.decode)))
        n[0] &= 0x7F
        await Self.expectRefused(PublicJWK(kty: "RSA", n: Base64URL.encode(n), e: "AQAB"))
        // 2048 bits of which the first eight are a zero byte: 2040 bits.
        await Self.expectRefused(PublicJWK(kty: "RSA", n: Base64URL.encode([0] + n.dropFirst()), e: "AQAB"))
    }

    @Test(arguments: [
        ("AQAA", "65536: even"),
        ("Ag", "2: even"),
        ("AQ", "1"),
        ("AA", "0"),
        ("AAAA", "0 in three bytes"),
        ("AQAAAAE", "2^32 + 1: five bytes"),
        ("", "empty"),
        ("AQ==", "padded"),
        ("+AB", "standard alphabet"),
    ])
    func refusesBadRSAExponents(_ e: String, _ why: String) async throws {
        await Self.expectRefused(PublicJWK(kty: "RSA", n: try Self.rsaJWK().n, e: e))
    }

    @Test func refusesRSAWithMissingMembers() async throws {
        await Self.expectRefused(PublicJWK(kty: "RSA", n: try Self.rsaJWK().n))
        await Self.expectRefused(PublicJWK(kty: "RSA", e: "AQAB"))
        await Self.expectRefused(PublicJWK(kty: "RSA", n: "AAAA", e: "AQAB"))
    }

    @Test func acceptsAnRSAExponentWithALeadingZeroByte() async throws {
        let key = try DevicePublicKey(jwk: PublicJWK(kty: "RSA", n: try Self.rsaJWK().n, e: "AAEAAQ"))
        #expect(key.jwk.e == "AQAB")
    }
}
