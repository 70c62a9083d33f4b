import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

/// The claims every device token carries: `iss`, `aud`, and `iat`/`exp` against the injected clock.
@Suite struct DeviceTokenClaimTests {
    static let now = TokenFixture.nowSeconds

    @Test func wrongIssIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        let compact = try fixture.forge(claims: TokenFixture.claims())
        try await fixture.expectRefused(compact, issuer: "enr_9876543210")
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iss: "enr_9876543210")))
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iss: "")))
    }

    @Test(arguments: [
        "https://evil.example", "http://localhost:8080/", "http://localhost:8081", "https://localhost:8080",
        "HTTP://localhost:8080", "",
    ])
    func wrongAudIsRefused(_ aud: String) async throws {
        let fixture = try await TokenFixture(.p256)
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(aud: aud)))
    }

    @Test func audMustBeTheConfiguredIssuer() async throws {
        let fixture = try await TokenFixture(.p256)
        let compact = try fixture.forge(claims: TokenFixture.claims())
        try await fixture.expectRefused(compact, rules: DeviceTokenRules(audience: "https://auth.example.com"))
    }

    @Test func lifetimeOf120SecondsIsAccepted() async throws {
        let fixture = try await TokenFixture(.p256)
        let claims = TokenFixture.claims(iat: Self.now, exp: Self.now + 120)
        try await fixture.expectAccepted(try fixture.forge(claims: claims), claims: claims)
    }

    @Test func lifetimeOf121SecondsIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iat: Self.now, exp: Self.now + 121)))
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iat: Self.now, exp: Self.now + 86_400)))
    }

    @Test func iat30SecondsAheadIsAccepted() async throws {
        let fixture = try await TokenFixture(.p256)
        let claims = TokenFixture.claims(iat: Self.now + 30, exp: Self.now + 90)
        try await fixture.expectAccepted(try fixture.forge(claims: claims), claims: claims)
    }

    @Test func iat31SecondsAheadIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iat: Self.now + 31, exp: Self.now + 91)))
    }

    @Test func passedExpIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        // exp == now: the token's last valid second has gone.
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iat: Self.now - 60, exp: Self.now)))
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iat: Self.now - 61, exp: Self.now - 1)))
        // One second before exp it is still good.
        let claims = TokenFixture.claims(iat: Self.now - 59, exp: Self.now + 1)
        try await fixture.expectAccepted(try fixture.forge(claims: claims), claims: claims)
    }

    @Test func expEqualToIatIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        // In the future but within the skew, so only exp > iat can refuse it.
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iat: Self.now + 10, exp: Self.now + 10)))
    }

    @Test func expBeforeIatIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iat: Self.now + 20, exp: Self.now + 10)))
    }

    @Test func fractionalNowIsRoundedDown() async throws {
        let fixture = try await TokenFixture(.p256)
        let claims = TokenFixture.claims(iat: Self.now - 59, exp: Self.now + 1)
        let compact = try fixture.forge(claims: claims)
        try await fixture.expectAccepted(compact, claims: claims, now: TokenFixture.now.addingTimeInterval(0.999))
        try await fixture.expectRefused(compact, now: TokenFixture.now.addingTimeInterval(1))
    }

    @Test func rulesAreConfigurable() async throws {
        let fixture = try await TokenFixture(.p256)
        var strict = TokenFixture.rules
        strict.maximumLifetime = 30
        strict.clockSkew = 0
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(exp: Self.now + 31)), rules: strict)
        try await fixture.expectRefused(try fixture.forge(claims: TokenFixture.claims(iat: Self.now + 1, exp: Self.now + 20)), rules: strict)
    }
}
