import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

/// The protected header of a device token: `alg` must be the key's, `kid` its thumbprint, `typ` the claims' type,
/// and no `crit`.
@Suite struct DeviceTokenHeaderTests {
    /// A header `alg` that differs from the key's, on a token correctly signed with the key's own algorithm.
    struct AlgCase: Sendable, CustomTestStringConvertible {
        var key: TestDevice.Algorithm
        var alg: String
        var testDescription: String { "\(key) key, header alg \(alg)" }
    }

    static let wrongAlgs: [AlgCase] =
        ["RS256", "none", "HS256", "ES384", "ES512", "EdDSA", "PS256", "es256", "ES256 ", ""].map {
            AlgCase(key: .p256, alg: $0)
        }
        + ["ES256", "RS256", "none", "HS256", "Ed25519", "ED25519", "eddsa"].map { AlgCase(key: .ed25519, alg: $0) }
        + ["ES256", "PS256", "RS384", "RS512", "none", "HS256", "rs256"].map { AlgCase(key: .rsa2048, alg: $0) }

    @Test(arguments: wrongAlgs)
    func algOtherThanTheKeysIsRefused(_ testCase: AlgCase) async throws {
        let fixture = try await TokenFixture(testCase.key)
        var header = fixture.header
        header.alg = testCase.alg
        try fixture.expectRefused(try fixture.forge(header))
    }

    @Test func missingAlgIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        var header = fixture.header
        header.alg = nil
        try fixture.expectRefused(try fixture.forge(header))
    }

    @Test func kidOfAnotherKeyIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        let other = try await TestDevice.key(.p256)
        var header = fixture.header
        header.kid = other.publicKey.thumbprint
        // Signed by the fixture's key, but naming the other key…
        let compact = try fixture.forge(header)
        try fixture.expectRefused(compact)
        // …which does not verify it either.
        await #expect(throws: DeviceTokenError.self) {
            try await other.publicKey.verify(
                UnverifiedDeviceToken(compact), as: ProofClaims.self, issuer: TokenFixture.issuer,
                rules: TokenFixture.rules, now: TokenFixture.now)
        }
    }

    @Test func missingKidIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        var header = fixture.header
        header.kid = nil
        let compact = try fixture.forge(header)
        #expect(throws: DeviceTokenError.self) { try UnverifiedDeviceToken(compact) }
    }

    @Test(arguments: [
        "touchstone-assertion+jwt", "touchstone-decision+jwt", "touchstone-request+jwt", "JWT", "jwt",
        "TOUCHSTONE-PROOF+JWT", "touchstone-proof+jwt ", "",
    ])
    func wrongTypIsRefused(_ typ: String) async throws {
        let fixture = try await TokenFixture(.p256)
        var header = fixture.header
        header.typ = typ
        try fixture.expectRefused(try fixture.forge(header))
    }

    @Test func missingTypIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        var header = fixture.header
        header.typ = nil
        try fixture.expectRefused(try fixture.forge(header))
    }

    /// An assertion carries every proof claim (`nonce` included), so only `typ` tells them apart.
    @Test func signedAssertionIsNotAcceptedAsAProof() async throws {
        let fixture = try await TokenFixture(.p256)
        let assertion = AssertionClaims(
            iss: TokenFixture.issuer, aud: TokenFixture.audience, iat: TokenFixture.nowSeconds,
            exp: TokenFixture.nowSeconds + 60, nonce: "bm9uY2U", dfp: "ZGZw")
        let compact = try await fixture.key.sign(assertion)
        let asAssertion = try fixture.key.publicKey.verify(
            UnverifiedDeviceToken(compact), as: AssertionClaims.self, issuer: TokenFixture.issuer,
            rules: TokenFixture.rules, now: TokenFixture.now)
        #expect(asAssertion == assertion)
        try fixture.expectRefused(compact)
    }

    @Test(arguments: [
        #""crit":["touchstone-ext"],"touchstone-ext":true"#,
        #""crit":["exp"]"#,
        #""crit":[]"#,
        #""crit":"touchstone-ext""#,
    ])
    func critIsRefused(_ member: String) async throws {
        let fixture = try await TokenFixture(.p256)
        var header = fixture.header
        header.extra = [member]
        try fixture.expectRefused(try fixture.forge(header))
    }

    @Test func unknownNonCriticalHeaderMembersAreIgnored() async throws {
        let fixture = try await TokenFixture(.p256)
        var header = fixture.header
        header.extra = [#""touchstone-ext":true"#, #""cty":"JWT""#]
        let claims = TokenFixture.claims()
        try fixture.expectAccepted(try fixture.forge(header, claims: claims), claims: claims)
    }
}
