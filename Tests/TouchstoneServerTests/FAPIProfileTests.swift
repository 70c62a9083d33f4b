import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// Clients registered with `--fapi` (PROTOCOL "FAPI 2.0: `--fapi` clients"): PAR only, every token DPoP-bound,
/// ES256 ID tokens, refresh tokens bound and not rotated.
@Suite struct FAPIProfileTests {
    static let dpop = HTTPField.Name("DPoP")!

    /// The shop registered as a FAPI client with `key`'s public half as its JWK Set, and Ana's account.
    func registeredFAPIClient(_ h: Harness, key: TestJOSEKey) async throws -> RelyingSite {
        try await h.createAccount()
        var site = RelyingSite()
        try await h.saveApp(AppPolicy(clientId: site.clientId, publisher: "shops"))
        var registration = OIDCClientRegistration(
            clientId: site.clientId, name: "The Shop", redirectURIs: [site.redirectURI],
            postLogoutRedirectURIs: [site.postLogoutURI], confidential: false, idTokenAlgorithm: "ES256",
            keys: try ClientKeySet(file: try key.jwksFile()))
        registration.fapi = true
        let (record, _) = try registration.record(random: SystemRandom())
        try await h.store.saveOIDCClient(record)
        site.secret = nil
        return site
    }

    /// An assertion of the client as a FAPI client must make it: `aud` exactly the issuer.
    func assertion(_ h: Harness, _ key: TestJOSEKey, _ site: RelyingSite) throws -> String {
        try key.clientAssertion(site.clientId, now: h.now, changes: ["aud": Harness.issuer])
    }

    /// `POST /oauth2/par` with the site's request (with `changes`), authenticated by an assertion of `key`.
    func push(_ h: Harness, _ key: TestJOSEKey, _ site: RelyingSite, _ changes: [String: String?] = [:]) async throws
        -> TestResponse
    {
        var form = try Redirect("par?" + site.query(changes)).parameters
        form["client_assertion_type"] = PrivateKeyJWTTests.assertionType
        form["client_assertion"] = try assertion(h, key, site)
        return try await h.postForm("/oauth2/par", form)
    }

    /// Ana signed in for the FAPI shop through PAR: the redirect that carries the code.
    func signedInThroughPAR(_ h: Harness, _ key: TestJOSEKey, _ site: RelyingSite) async throws -> Redirect {
        let pushed = try await push(h, key, site)
        #expect(pushed.status == .created, "\(String(buffer: pushed.body))")
        let requestURI = try h.decode(PushedAuthorizationResponse.self, pushed).requestUri
        let (redirect, _) = try await h.signIn(
            "client_id=\(site.clientId)&request_uri=\(PercentEncoding.unreserved(requestURI))")
        return redirect
    }

    /// The FAPI shop registered with `key` and a code for Ana, through PAR.
    func codeThroughPAR(_ h: Harness, _ key: TestJOSEKey) async throws -> (RelyingSite, String) {
        let site = try await registeredFAPIClient(h, key: key)
        return (site, try #require(try await signedInThroughPAR(h, key, site).parameters["code"]))
    }

    /// `POST /oauth2/token` by the FAPI client, with `proof` as its DPoP header.
    func token(_ h: Harness, _ key: TestJOSEKey, _ site: RelyingSite, _ form: [String: String], proof: String?)
        async throws -> TestResponse
    {
        let body = form.merging([
            "client_assertion_type": PrivateKeyJWTTests.assertionType, "client_assertion": try assertion(h, key, site),
        ]) { $1 }.map { "\($0.key)=\(PercentEncoding.unreserved($0.value))" }.joined(separator: "&")
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let proof { headers[Self.dpop] = proof }
        return try await h.send(.post, "/oauth2/token", raw: body, headers: headers)
    }

    func codeForm(_ code: String, _ site: RelyingSite) -> [String: String] {
        ["grant_type": "authorization_code", "code": code, "redirect_uri": site.redirectURI, "code_verifier": site.verifier]
    }

    @Test func registrationNeedsKeysAndRefusesSecretsAndRS256IDTokens() throws {
        let key = TestJOSEKey.p256()
        func registration(alg: String, keys: Bool, secret: Bool = false) throws -> OIDCClientRegistration {
            var registration = OIDCClientRegistration(
                clientId: "bank", name: nil, redirectURIs: ["https://bank.example/cb"], postLogoutRedirectURIs: [],
                confidential: secret, idTokenAlgorithm: alg, keys: keys ? try ClientKeySet(file: try key.jwksFile()) : nil)
            registration.fapi = true
            return registration
        }
        #expect(throws: ConfigurationError.self) { try registration(alg: "RS256", keys: true).record(random: SystemRandom()) }
        #expect(throws: ConfigurationError.self) { try registration(alg: "ES256", keys: false).record(random: SystemRandom()) }
        // Keys and a secret: FAPI 2.0 allows no shared secret.
        #expect(throws: ConfigurationError.self) {
            try registration(alg: "ES256", keys: true, secret: true).record(random: SystemRandom())
        }
        let (record, _) = try registration(alg: "ES256", keys: true).record(random: SystemRandom())
        #expect(record.fapi)
    }

    @Test func theAuthorizationRequestComesOnlyThroughPARWithIssInEveryAnswer() async throws {
        try await Harness.run { h in
            let key = TestJOSEKey.p256()
            let site = try await registeredFAPIClient(h, key: key)
            // Straight to /oauth2/authorize: invalid_request at the registered redirect URI, with iss and state.
            let direct = try h.location(try await h.authorize(site.query()))
            #expect(direct.base == site.redirectURI)
            #expect(direct.parameters["error"] == "invalid_request", "\(direct.parameters)")
            #expect(direct.parameters["iss"] == Harness.issuer && direct.parameters["state"] == "st-123")
            // A redirect URI that cannot be trusted: the page, never a redirect.
            let untrusted = try await h.authorize(site.query(["redirect_uri": "https://evil.example/callback"]))
            #expect(untrusted.status == .badRequest)
            #expect(untrusted.headers[.location] == nil)
            // Through PAR: a code, with iss.
            let redirect = try await signedInThroughPAR(h, key, site)
            #expect(redirect.parameters["code"] != nil && redirect.parameters["iss"] == Harness.issuer)
            // PAR itself keeps the profile: S256 and response_type=code only.
            let plain = try await push(h, key, site, ["code_challenge_method": "plain"])
            #expect(try h.oauthError(plain) == "invalid_request")
            let hybrid = try await push(h, key, site, ["response_type": "code id_token"])
            #expect(try h.oauthError(hybrid) == "unsupported_response_type")
        }
    }

    @Test func everyTokenIsDPoPBoundAndARefusedProofSpendsNoCode() async throws {
        try await Harness.run { h in
            let key = TestJOSEKey.p256()
            let proofKey = TestJOSEKey.p256()
            let (site, code) = try await codeThroughPAR(h, key)
            for (name, proof) in [
                ("no proof", nil), ("a proof for another endpoint", try proofKey.dpopProof("POST", "/oauth2/par", now: h.now)),
            ] {
                let refused = try await token(h, key, site, codeForm(code, site), proof: proof)
                #expect(refused.status == .badRequest, "\(name)")
                #expect(try h.oauthError(refused) == "invalid_dpop_proof", "\(name)")
            }
            let response = try await token(
                h, key, site, codeForm(code, site), proof: try proofKey.dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            let tokens = try h.decode(OAuthTokenResponse.self, response)
            #expect(tokens.tokenType == "DPoP")
            let (_, claims) = try jwtParts(tokens.accessToken)
            #expect((claims["cnf"] as? [String: Any])?["jkt"] as? String == proofKey.thumbprint)
            let (header, _) = try jwtParts(try #require(tokens.idToken))
            #expect(header["alg"] as? String == "ES256")
        }
    }

    @Test func aRefreshTokenIsNotRotatedAndStaysBoundToItsKeyUntilRevoked() async throws {
        try await Harness.run { h in
            let key = TestJOSEKey.p256()
            let proofKey = TestJOSEKey.p256()
            let (site, code) = try await codeThroughPAR(h, key)
            let issued = try h.decode(
                OAuthTokenResponse.self,
                try await token(
                    h, key, site, codeForm(code, site), proof: try proofKey.dpopProof("POST", "/oauth2/token", now: h.now)))
            let refreshToken = try #require(issued.refreshToken)
            let form = ["grant_type": "refresh_token", "refresh_token": refreshToken]
            // The same token refreshes again and again: it is handed back, not rotated (reuse would end the session).
            for _ in 0..<2 {
                let refreshed = try await token(
                    h, key, site, form, proof: try proofKey.dpopProof("POST", "/oauth2/token", now: h.now))
                #expect(refreshed.status == .ok, "\(String(buffer: refreshed.body))")
                let tokens = try h.decode(OAuthTokenResponse.self, refreshed)
                #expect(tokens.refreshToken == refreshToken && tokens.tokenType == "DPoP")
            }
            let anotherKey = try await token(
                h, key, site, form, proof: try TestJOSEKey.p256().dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(try h.oauthError(anotherKey) == "invalid_grant")
            let noProof = try await token(h, key, site, form, proof: nil)
            #expect(try h.oauthError(noProof) == "invalid_dpop_proof")
            // Until it is revoked.
            let revoked = try await h.postForm(
                "/oauth2/revoke",
                [
                    "token": refreshToken, "client_assertion_type": PrivateKeyJWTTests.assertionType,
                    "client_assertion": try assertion(h, key, site),
                ])
            #expect(revoked.status == .ok)
            let afterRevocation = try await token(
                h, key, site, form, proof: try proofKey.dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(try h.oauthError(afterRevocation) == "invalid_grant")
        }
    }

    @Test func aCIBAGrantNeedsAProofAndItsRefreshTokenIsBoundAndNotRotated() async throws {
        try await Harness.run { h in
            let key = TestJOSEKey.p256()
            let proofKey = TestJOSEKey.p256()
            try await h.saveApp(AppPolicy(clientId: "bank", publisher: "demo"))
            var registration = OIDCClientRegistration(
                clientId: "bank", name: "Example Bank", redirectURIs: [], postLogoutRedirectURIs: [], confidential: false,
                idTokenAlgorithm: "ES256", keys: try ClientKeySet(file: try key.jwksFile()))
            registration.ciba = CIBAClientRegistration(mode: "poll", notificationEndpoint: nil)
            registration.fapi = true
            let (record, _) = try registration.record(random: SystemRandom())
            try await h.store.saveOIDCClient(record)
            try await h.store.saveCIBAClient(try #require(registration.ciba).record(clientId: "bank", confidential: true))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            var site = RelyingSite()
            site.clientId = "bank"

            let asked = try await h.postForm(
                "/oauth2/bc-authorize",
                CIBATests.request.merging([
                    "client_assertion_type": PrivateKeyJWTTests.assertionType,
                    "client_assertion": try assertion(h, key, site),
                ]) { $1 })
            #expect(asked.status == .ok, "\(String(buffer: asked.body))")
            let id = try h.decode(BackchannelAuthentication.self, asked).authRequestId
            let item = try #require(try await h.inboxItems(device, deviceId: enrolled.deviceId).first { $0.kind == .ciba })
            let decision = try await device.decision(
                deviceId: enrolled.deviceId, challenge: item.challenge, approve: true, txn: item.txn, now: h.now)
            #expect(try await h.decide("ciba", item.id, decision).status == .ok)
            h.clock.advance(by: 5)
            let poll = ["grant_type": CIBATests.grantType, "auth_req_id": id]
            let unproven = try await token(h, key, site, poll, proof: nil)
            #expect(try h.oauthError(unproven) == "invalid_dpop_proof")
            let granted = try await token(
                h, key, site, poll, proof: try proofKey.dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(granted.status == .ok, "\(String(buffer: granted.body))")
            let refreshToken = try #require(try h.decode(OAuthTokenResponse.self, granted).refreshToken)
            let form = ["grant_type": "refresh_token", "refresh_token": refreshToken]
            let anotherKey = try await token(
                h, key, site, form, proof: try TestJOSEKey.p256().dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(try h.oauthError(anotherKey) == "invalid_grant")
            let refreshed = try await token(
                h, key, site, form, proof: try proofKey.dpopProof("POST", "/oauth2/token", now: h.now))
            #expect(try h.decode(OAuthTokenResponse.self, refreshed).refreshToken == refreshToken)
        }
    }
}
