import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TouchstoneCrypto
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// `private_key_jwt` (RFC 7523, PROTOCOL "FAPI 2.0: Client keys"): client JWK Sets and assertions wherever a client
/// authenticates, each `jti` once.
@Suite struct PrivateKeyJWTTests {
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// The shop registered with `key`'s public half as its JWK Set, Ana signed in for it.
    func signedInKeyClient(_ h: Harness, key: TestJOSEKey) async throws -> (RelyingSite, String) {
        try await h.createAccount()
        var site = RelyingSite()
        try await h.saveApp(AppPolicy(clientId: site.clientId, publisher: "shops"))
        let (record, _) = try OIDCClientRegistration(
            clientId: site.clientId, name: "The Shop", redirectURIs: [site.redirectURI],
            postLogoutRedirectURIs: [site.postLogoutURI], confidential: false, idTokenAlgorithm: "ES256",
            keys: try ClientKeySet(file: try key.jwksFile())
        ).record(random: SystemRandom())
        try await h.store.saveOIDCClient(record)
        site.secret = nil
        let (redirect, _) = try await h.signIn(site.query())
        return (site, try #require(redirect.parameters["code"]))
    }

    func redeem(_ h: Harness, _ code: String, _ site: RelyingSite, assertion: String, clientId: Bool = true) async throws
        -> TestResponse
    {
        var form = [
            "grant_type": "authorization_code", "code": code, "redirect_uri": site.redirectURI,
            "code_verifier": site.verifier, "client_assertion_type": Self.assertionType, "client_assertion": assertion,
        ]
        if clientId { form["client_id"] = site.clientId }
        return try await h.postForm("/oauth2/token", form)
    }

    @Test(arguments: ["ES256", "EdDSA", "PS256", "RS256"])
    func aClientAuthenticatesWithAnAssertionOfEachKeyTypeAtTokenPARAndRevocation(alg: String) async throws {
        try await Harness.run { h in
            let key: TestJOSEKey =
                switch alg {
                case "ES256": .p256()
                case "EdDSA": .ed25519()
                default: try .rsa()
                }
            let (site, code) = try await signedInKeyClient(h, key: key)
            // Without client_id in the form: the assertion's sub names the client.
            let tokens = try await redeem(
                h, code, site, assertion: try key.clientAssertion(site.clientId, now: h.now, alg: alg), clientId: false)
            #expect(tokens.status == .ok, "\(String(buffer: tokens.body))")
            let answer = try h.decode(OAuthTokenResponse.self, tokens)

            let par = try await h.postForm(
                "/oauth2/par",
                [
                    "client_assertion_type": Self.assertionType, "response_type": "code", "client_id": site.clientId,
                    "redirect_uri": site.redirectURI, "scope": "openid", "code_challenge": site.challenge,
                    "code_challenge_method": "S256",
                    "client_assertion": try key.clientAssertion(
                        site.clientId, now: h.now, changes: ["aud": Harness.issuer + "/oauth2/par"], alg: alg),
                ])
            #expect(par.status == .created, "\(String(buffer: par.body))")

            let revoke = try await h.postForm(
                "/oauth2/revoke",
                [
                    "token": answer.accessToken, "client_assertion_type": Self.assertionType,
                    "client_assertion": try key.clientAssertion(site.clientId, now: h.now, changes: ["aud": [Harness.issuer]], alg: alg),
                ])
            #expect(revoke.status == .ok)
            #expect(try await h.userInfo(answer.accessToken).status == .unauthorized)
        }
    }

    /// Every hostile assertion the issue names: 401 `invalid_client`, and the code is still there to redeem.
    @Test func hostileAssertionsAreInvalidClientAndSpendNothing() async throws {
        try await Harness.run { h in
            let key = TestJOSEKey.p256()
            let rsaKey = try TestJOSEKey.rsa()
            let (site, code) = try await signedInKeyClient(h, key: key)
            let now = Int(h.now.timeIntervalSince1970)
            var other = RelyingSite()
            other.clientId = "other-shop"
            try await h.register(&other)

            let replayed = try key.clientAssertion(site.clientId, now: h.now)
            let first = try await h.postForm(
                "/oauth2/revoke",
                ["token": "x", "client_assertion_type": Self.assertionType, "client_assertion": replayed])
            #expect(first.status == .ok)

            let hostile: [(String, String)] = [
                ("a replayed jti", replayed),
                ("alg none", try key.clientAssertion(site.clientId, now: h.now, alg: "none")),
                ("HS256 keyed with the public key", try key.clientAssertion(site.clientId, now: h.now, alg: "HS256")),
                ("another key's signature", try TestJOSEKey.p256().clientAssertion(site.clientId, now: h.now)),
                ("an RSA key the client never registered", try rsaKey.clientAssertion(site.clientId, now: h.now)),
                ("an assertion for another client", try key.clientAssertion(other.clientId, now: h.now)),
                ("iss of another client", try key.clientAssertion(site.clientId, now: h.now, changes: ["iss": other.clientId])),
                ("expired", try key.clientAssertion(site.clientId, now: h.now, changes: ["iat": now - 120, "exp": now - 1])),
                ("exp more than 5 minutes after iat", try key.clientAssertion(site.clientId, now: h.now, changes: ["exp": now + 301])),
                ("exp more than 5 minutes ahead without iat", try key.clientAssertion(site.clientId, now: h.now, changes: ["iat": nil, "exp": now + 301])),
                ("iat too far ahead", try key.clientAssertion(site.clientId, now: h.now, changes: ["iat": now + 11, "exp": now + 60])),
                ("nbf too far ahead", try key.clientAssertion(site.clientId, now: h.now, changes: ["nbf": now + 11])),
                ("aud of another server", try key.clientAssertion(site.clientId, now: h.now, changes: ["aud": "https://evil.example"])),
                ("aud of another endpoint", try key.clientAssertion(site.clientId, now: h.now, changes: ["aud": Harness.issuer + "/oauth2/par"])),
                ("no jti", try key.clientAssertion(site.clientId, now: h.now, changes: ["jti": nil])),
                ("a kid the set does not hold", try key.clientAssertion(site.clientId, now: h.now, header: ["kid": "nope"])),
                ("crit", try key.clientAssertion(site.clientId, now: h.now, header: ["crit": ["exp"]])),
                ("not a JWS", "a.b"),
            ]
            for (name, assertion) in hostile {
                let response = try await redeem(h, code, site, assertion: assertion)
                #expect(response.status == .unauthorized, "\(name)")
                #expect(try h.oauthError(response) == "invalid_client", "\(name)")
            }
            // The client's id alone, or a secret it does not have, proves nothing.
            let bare = try await h.redeem(code, site)
            #expect(bare.status == .unauthorized)
            // Nothing was spent: the code still redeems.
            let good = try await redeem(h, code, site, assertion: try key.clientAssertion(site.clientId, now: h.now))
            #expect(good.status == .ok, "\(String(buffer: good.body))")
        }
    }

    @Test func aFAPIClientsAssertionMustNameExactlyTheIssuerWithoutRS256() async throws {
        try await Harness.run { h in
            let key = try TestJOSEKey.rsa()
            let profile = FAPIProfileTests()
            let site = try await profile.registeredFAPIClient(h, key: key)
            let code = try #require(try await profile.signedInThroughPAR(h, key, site).parameters["code"])
            for (name, assertion) in [
                ("RS256", try key.clientAssertion(site.clientId, now: h.now, changes: ["aud": Harness.issuer], alg: "RS256")),
                ("the token endpoint", try key.clientAssertion(site.clientId, now: h.now)),
                ("the issuer in an array", try key.clientAssertion(site.clientId, now: h.now, changes: ["aud": [Harness.issuer]])),
            ] {
                let response = try await redeem(h, code, site, assertion: assertion)
                #expect(response.status == .unauthorized, "\(name)")
                #expect(try h.oauthError(response) == "invalid_client", "\(name)")
            }
            let good = try await profile.token(
                h, key, site, profile.codeForm(code, site), proof: try key.dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(good.status == .ok, "\(String(buffer: good.body))")
        }
    }

    @Test func spentJTIsArePurgedOnceExpired() async throws {
        try await Harness.run { h in
            let id = "client:shop:jti-1"
            #expect(try await h.store.spendJTI(id, expiresAt: h.now.addingTimeInterval(60), now: h.now))
            #expect(try await !h.store.spendJTI(id, expiresAt: h.now.addingTimeInterval(60), now: h.now))
            h.clock.advance(by: 61)
            try await h.store.purgeExpired(now: h.now)
            let store = try #require(h.store as? SQLStore)
            let left = try await store.provider.read { try await $0.raw("SELECT id FROM spent_jtis").all().count }
            #expect(left == 0)
            #expect(try await h.store.spendJTI(id, expiresAt: h.now.addingTimeInterval(60), now: h.now))
        }
    }

    @Test func aJWKSetWithAPrivateMemberOrAWeakKeyIsRefusedInOneLine() throws {
        let key = TestJOSEKey.p256()
        let cases: [(String, Data)] = [
            ("private d", try JSONSerialization.data(withJSONObject: ["keys": [key.privateJWK]])),
            ("symmetric k", try JSONSerialization.data(withJSONObject: ["keys": [["kty": "oct", "k": "c2VjcmV0"]]])),
            ("an RSA key of 1024 bits", try JSONSerialization.data(withJSONObject: ["keys": [["kty": "RSA", "n": Base64URL.encode(Data([0xC1] + Array(repeating: 0x55, count: 127))), "e": "AQAB"]]])),
            ("no keys", Data(#"{"keys":[]}"#.utf8)),
            ("not JSON", Data("keys".utf8)),
            ("two keys with one kid", try JSONSerialization.data(withJSONObject: ["keys": [key.publicJWK.merging(["kid": "a"]) { $1 }, TestJOSEKey.p256().publicJWK.merging(["kid": "a"]) { $1 }]])),
        ]
        for (name, file) in cases {
            let error = try #require(throws: ConfigurationError.self, "\(name)") { try ClientKeySet(file: file) }
            #expect(!error.description.contains("\n"), "\(name)")
            #expect(!error.description.contains(key.privateJWK["d"] ?? "-"), "\(name)")
        }
        #expect(try ClientKeySet(file: try key.jwksFile()).keys.map(\.kid) == [key.thumbprint])
    }
}
