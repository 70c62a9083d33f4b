import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol

/// Random tokens, SHA-256 digests at rest, and constant-time comparison.
@Suite struct SecretDigestTests {
    @Test func sha256KnownAnswers() {
        // FIPS 180-2 "abc", and the empty string.
        #expect(SecretDigest.sha256("abc") == "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0")
        #expect(SecretDigest.sha256("") == "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU")
    }

    @Test func constantTimeEqualsIsEquality() {
        #expect(SecretDigest.constantTimeEquals("", ""))
        #expect(SecretDigest.constantTimeEquals("secret-token", "secret-token"))
        #expect(SecretDigest.constantTimeEquals("é📱", "é📱"))
        #expect(!SecretDigest.constantTimeEquals("secret-token", "secret-tokeN"))
        #expect(!SecretDigest.constantTimeEquals("secret-token", "Secret-token"))
        #expect(!SecretDigest.constantTimeEquals("secret-token", "secret-toke"))
        #expect(!SecretDigest.constantTimeEquals("secret-toke", "secret-token"))
        #expect(!SecretDigest.constantTimeEquals("", "a"))
        #expect(!SecretDigest.constantTimeEquals("a", ""))
        // Equal lengths in characters, different in UTF-8 bytes.
        #expect(!SecretDigest.constantTimeEquals("e\u{301}", "é"))
    }

    @Test func constantTimeEqualsComparesEveryByte() {
        let base = [UInt8](repeating: UInt8(ascii: "a"), count: 64)
        for index in base.indices {
            var changed = base
            changed[index] = UInt8(ascii: "b")
            #expect(!SecretDigest.constantTimeEquals(String(decoding: base, as: UTF8.self), String(decoding: changed, as: UTF8.self)))
        }
    }

    @Test func randomTokenHasTheRequestedBytes() {
        let token = SecretDigest.randomToken()
        #expect(Base64URL.decode(token)?.count == 32)
        #expect(token.count == 43)
        #expect(Base64URL.decode(SecretDigest.randomToken(bytes: 16))?.count == 16)
        let tokens = Set((0..<100).map { _ in SecretDigest.randomToken() })
        #expect(tokens.count == 100)
    }
}
