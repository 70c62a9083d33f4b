import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

/// The claims every device token carries: `iss`, `aud`, and `iat`/`exp` against the injected clock.
///
/// Each token is split (``TokenFixture/split(_:)``) before the expectation, so that one refused only for being
/// malformed fails the test instead of passing it.
@Suite struct DeviceTokenClaimTests {
    static let now = TokenFixture.nowSeconds

    @Test func wrongIssIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        let token = try fixture.split(try fixture.forge(claims: TokenFixture.claims()))
        #expect(throws: DeviceTokenError.self) { try fixture.verify(token, issuer: "enr_9876543210") }
        for iss in ["enr_9876543210", ""] {
            let token = try fixture.split(try fixture.forge(claims: TokenFixture.claims(iss: iss)))
            #expect(throws: DeviceTokenError.self) { try fixture.verify(token) }
        }
    }

    @Test(arguments: [
        "https://evil.example", "http://localhost:8080/", "http://localhost:8081", "https://localhost:8080",
        "HTTP://localhost:8080", "",
    ])
    func wrongAudIsRefused(_ aud: String) async throws {
        let fixture = try await TokenFixture(.p256)
        let token = try fixture.split(try fixture.forge(claims: TokenFixture.claims(aud: aud)))
        #expect(throws: DeviceTokenError.self) { try fixture.verify(token) }
    }

    @Test func audMustBeTheConfiguredIssuer() async throws {
        let fixture = try await TokenFixture(.p256)
        let token = try fixture.split(try fixture.forge(claims: TokenFixture.claims()))
        #expect(throws: DeviceTokenError.self) {
            try fixture.verify(token, rules: DeviceTokenRules(audience: "https://auth.example.com"))
        }
    }

    @Test func lifetimeOf120SecondsIsAccepted() async throws {
        let fixture = try await TokenFixture(.p256)
        let claims = TokenFixture.claims(iat: Self.now, exp: Self.now + 120)
        #expect(try fixture.verify(try fixture.forge(claims: claims)) == claims)
    }

    @Test func lifetimeOf121SecondsIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        for exp in [Self.now + 121, Self.now + 86_400] {
            let token = try fixture.split(try fixture.forge(claims: TokenFixture.claims(iat: Self.now, exp: exp)))
            #expect(throws: DeviceTokenError.self) { try fixture.verify(token) }
        }
    }

    @Test func iat30SecondsAheadIsAccepted() async throws {
        let fixture = try await TokenFixture(.p256)
        let claims = TokenFixture.claims(iat: Self.now + 30, exp: Self.now + 90)
        #expect(try fixture.verify(try fixture.forge(claims: claims)) == claims)
    }

    @Test func iat31SecondsAheadIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        let token = try fixture.split(try fixture.forge(claims: TokenFixture.claims(iat: Self.now + 31, exp: Self.now + 91)))
        #expect(throws: DeviceTokenError.self) { try fixture.verify(token) }
    }

    @Test func passedExpIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        // exp == now: the token's last valid second has gone.
        for (iat, exp) in [(Self.now - 60, Self.now), (Self.now - 61, Self.now - 1)] {
            let token = try fixture.split(try fixture.forge(claims: TokenFixture.claims(iat: iat, exp: exp)))
            #expect(throws: DeviceTokenError.self) { try fixture.verify(token) }
        }
        // One second before exp it is still good.
        let claims = TokenFixture.claims(iat: Self.now - 59, exp: Self.now + 1)
        #expect(try fixture.verify(try fixture.forge(claims: claims)) == claims)
    }

    @Test func expEqualToIatIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        // In the future but within the skew, so only exp > iat can refuse it.
        let token = try fixture.split(try fixture.forge(claims: TokenFixture.claims(iat: Self.now + 10, exp: Self.now + 10)))
        #expect(throws: DeviceTokenError.self) { try fixture.verify(token) }
    }

    @Test func expBeforeIatIsRefused() async throws {
        let fixture = try await TokenFixture(.p256)
        let token = try fixture.split(try fixture.forge(claims: TokenFixture.claims(iat: Self.now + 20, exp: Self.now + 10)))
        #expect(throws: DeviceTokenError.self) { try fixture.verify(token) }
    }

    @Test func fractionalNowIsRoundedDown() async throws {
        let fixture = try await TokenFixture(.p256)
        let claims = TokenFixture.claims(iat: Self.now - 59, exp: Self.now + 1)
        let token = try fixture.split(try fixture.forge(claims: claims))
        #expect(try fixture.verify(token, now: TokenFixture.now.addingTimeInterval(0.999)) == claims)
        #expect(throws: DeviceTokenError.self) { try fixture.verify(token, now: TokenFixture.now.addingTimeInterval(1)) }
    }

    @Test func rulesAreConfigurable() async throws {
        let fixture = try await TokenFixture(.p256)
        var strict = TokenFixture.rules
        strict.maximumLifetime = 30
        strict.clockSkew = 0
        for claims in [TokenFixture.claims(exp: Self.now + 31), TokenFixture.claims(iat: Self.now + 1, exp: Self.now + 20)] {
            let token = try fixture.split(try fixture.forge(claims: claims))
            #expect(throws: DeviceTokenError.self) { try fixture.verify(token, rules: strict) }
        }
    }
}
