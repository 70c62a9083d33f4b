import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

/// Splitting a token before its signature is checked, and the digest kept to accept it only once.
@Suite struct UnverifiedDeviceTokenTests {
    @Test func readsKidAndIss() async throws {
        let fixture = try await TokenFixture(.p256)
        let compact = try await fixture.key.sign(TokenFixture.claims())
        let token = try UnverifiedDeviceToken(compact)
        #expect(token.kid == fixture.key.publicKey.thumbprint)
        #expect(token.issuer == TokenFixture.issuer)
        #expect(token.compact == compact)
        // The digest covers what was signed, not the signature's spelling.
        let signingInput = compact.split(separator: ".").prefix(2).joined(separator: ".")
        #expect(token.digest == SecretDigest.sha256(signingInput))
    }

    @Test func refusesWhatIsNotACompactJWS() async throws {
        let fixture = try await TokenFixture(.p256)
        let compact = try await fixture.key.sign(TokenFixture.claims())
        let parts = CompactJWS.parts(compact)
        let noIss = Base64URL.encode(Array(#"{"aud":"x"}"#.utf8))
        for bad in [
            "", parts[0], parts[0] + "." + parts[1], compact + ".", compact + "." + parts[2],
            "=" + compact, parts[0] + "=." + parts[1] + "." + parts[2], parts[0] + "." + noIss + "." + parts[2],
            "e30." + parts[1] + "." + parts[2],
        ] {
            #expect(throws: DeviceTokenError.self) { try UnverifiedDeviceToken(bad) }
        }
    }

    @Test func refusesTokensOver16KiB() async throws {
        let fixture = try await TokenFixture(.p256)
        let sized = { (nonceLength: Int) throws -> String in
            try fixture.forge(claims: TokenFixture.claims(nonce: String(repeating: "n", count: nonceLength)))
        }
        let base = try sized(0).utf8.count
        // base64url grows by 4/3, so find the longest nonce that still fits.
        var length = (16_384 - base) * 3 / 4
        while try sized(length + 1).utf8.count <= 16_384 { length += 1 }
        while try sized(length).utf8.count > 16_384 { length -= 1 }
        #expect(try UnverifiedDeviceToken(try sized(length)).issuer == TokenFixture.issuer)
        let tooLong = try sized(length + 3)
        #expect(tooLong.utf8.count > 16_384)
        #expect(throws: DeviceTokenError.self) { try UnverifiedDeviceToken(tooLong) }
    }

    /// ECDSA signatures are malleable: (r, n − s) verifies wherever (r, s) does. The server records
    /// `digest` to accept a verified token at most once (PROTOCOL.md), so the twin must not get a new digest.
    /// Regression: the digest once covered the signature text, so an ECDSA twin (r, n − s) was accepted again.
    @Test
    func ecdsaSignatureTwinHasTheSameDigest() async throws {
        let fixture = try await TokenFixture(.p256)
        let claims = TokenFixture.claims()
        let compact = try await fixture.key.sign(claims)
        var parts = CompactJWS.parts(compact)
        let signature = [UInt8](try #require(Base64URL.decode(parts[2])))
        parts[2] = Base64URL.encode(CompactJWS.ecdsaTwin(signature))
        let twin = parts.joined(separator: ".")
        #expect(twin != compact)
        try fixture.expectAccepted(twin, claims: claims)
        #expect(try UnverifiedDeviceToken(twin).digest == UnverifiedDeviceToken(compact).digest)
    }

    /// The same token spelled with base64 padding or other unused trailing bits must be refused or share the digest.
    @Test(arguments: TestDevice.Algorithm.allCases)
    func respelledSignatureIsRefusedOrHasTheSameDigest(_ algorithm: TestDevice.Algorithm) async throws {
        let fixture = try await TokenFixture(algorithm)
        let compact = try await fixture.key.sign(TokenFixture.claims())
        let parts = CompactJWS.parts(compact)
        let original = try UnverifiedDeviceToken(compact).digest
        var respellings = [parts[2] + "=", parts[2] + "==", parts[2] + "%3D"]
        // Change the unused low bits of the last character, if the signature length leaves any.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        if parts[2].count % 4 != 0, let last = parts[2].last, let value = alphabet.firstIndex(of: last) {
            respellings.append(String(parts[2].dropLast()) + String(alphabet[value ^ 1]))
        }
        for signature in respellings {
            let respelled = parts[0] + "." + parts[1] + "." + signature
            let verified = try? fixture.verify(respelled)
            let digest = (try? UnverifiedDeviceToken(respelled))?.digest
            #expect(verified == nil || digest == original, "signature spelled \(signature.suffix(4))")
        }
    }
}
