import Testing
@testable import TouchstoneWebAuthn

/// Wycheproof vectors through the same COSE-key verification path that assertions and self attestation use:
/// ES256 with DER signatures (BER and other non-DER encodings must fail), Ed25519, and RS256 (PKCS#1 v1.5).
@Suite struct WycheproofTests {
    @Test(arguments: [Wycheproof.Suite.ecdsaP256DER, .ed25519, .rsa2048PKCS1])
    func everyCaseMatchesItsExpectedResult(_ suite: Wycheproof.Suite) throws {
        let file = try Vectors.decode(Wycheproof.File.self, suite.path)
        var seen = 0
        var acceptable = 0
        for group in file.testGroups {
            let key = try COSEKey(bytes: suite.coseKey(group.publicKey))
            for test in group.tests {
                seen += 1
                let verified = key.isValidSignature(Hex.bytes(test.sig), for: Hex.bytes(test.msg))
                switch test.result {
                case "valid": #expect(verified, "tcId \(test.tcId): \(test.comment) \(test.flags)")
                case "invalid": #expect(!verified, "tcId \(test.tcId): \(test.comment) \(test.flags)")
                default: acceptable += 1  // "acceptable": either outcome is allowed
                }
            }
        }
        #expect(seen == suite.tests)
        #expect(seen == file.numberOfTests)
        #expect(acceptable == (suite.path.contains("rsa") ? 1 : 0))
    }
}
