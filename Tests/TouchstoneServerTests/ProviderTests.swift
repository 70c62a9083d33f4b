import Foundation
import HTTPTypes
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneStorage

/// The OpenID Connect provider: discovery, the code flow with PKCE, the provider session, ID tokens, refresh,
/// userinfo, PAR, logout and revocation, and every refusal PROTOCOL.md lists; on both stores.
@Suite struct ProviderTests {
    @Test func discoveryNamesEveryEndpointUnderTheIssuerAndTheJWKSAddsAnRSAKey() async throws {
        try await Harness.run { h in
            let response = try await h.send(.get, "/.well-known/openid-configuration")
            #expect(response.status == .ok)
            let configuration = try h.decode(OpenIDConfiguration.self, response)
            #expect(configuration.issuer == Harness.issuer)
            #expect(configuration.authorizationEndpoint == Harness.issuer + "/oauth2/authorize")
            #expect(configuration.tokenEndpoint == Harness.issuer + "/oauth2/token")
            #expect(configuration.pushedAuthorizationRequestEndpoint == Harness.issuer + "/oauth2/par")
            #expect(configuration.codeChallengeMethodsSupported == ["S256"])
            #expect(configuration.idTokenSigningAlgValuesSupported == ["RS256", "ES256"])
            #expect(configuration.authorizationResponseIssParameterSupported)
            let jwks = try h.decode(JWKSet.self, try await h.send(.get, "/.well-known/jwks.json"))
            let rsa = try #require(jwks.keys.first { $0.kty == "RSA" })
            #expect(rsa.alg == "RS256" && rsa.use == "sig" && (rsa.n?.count ?? 0) >= 342 && rsa.e == "AQAB")
            #expect(jwks.keys.contains { $0.kty == "EC" && $0.alg == "ES256" })
        }
    }

    @Test func aPasswordSignInOnThePageGivesACodeAndAVerifiedIDToken() async throws {
        try await Harness.run { h in
            let userId = try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site)
            let authorization = try await h.authorize(site.query())
            #expect(authorization.headers[.cacheControl] == "no-store")
            let requestId = try h.signInRequestId(authorization)
            let shown = try h.decode(SignInRequest.self, try await h.send(.get, "/oauth2/sign-in/\(requestId)"))
            #expect(shown.clientName == "The Shop" && shown.clientId == "shop" && shown.requiredAcr == "aal1")

            let completed = try await h.completeSignIn(requestId, with: try await h.pageSession())
            #expect(completed.status == .ok)
            let setCookie = try #require(completed.headers[.setCookie])
            #expect(setCookie.hasPrefix("touchstone-op="))
            for attribute in ["Path=/", "HttpOnly", "SameSite=Lax"] {
                #expect(setCookie.contains(attribute), "\(setCookie)")
            }
            // It lasts as long as the app's maximum session lifetime (12 hours by default) from the sign-in.
            let maxAge = setCookie.split(separator: ";").first { $0.contains("Max-Age=") }?.split(separator: "=").last
            #expect(maxAge.flatMap { Int($0) }.map { (43_190...43_200).contains($0) } == true, "\(setCookie)")
            let redirect = try Redirect(try h.decode(SignInRedirect.self, completed).redirectTo)
            #expect(redirect.base == site.redirectURI)
            #expect(redirect.parameters["state"] == "st-123" && redirect.parameters["iss"] == Harness.issuer)
            let code = try #require(redirect.parameters["code"])

            let tokens = try await h.redeem(code, site)
            #expect(tokens.status == .ok)
            #expect(tokens.headers[.cacheControl] == "no-store")
            let body = try h.decode(OAuthTokenResponse.self, tokens)
            #expect(body.tokenType == "Bearer" && body.scope == "openid profile offline_access")
            #expect(body.refreshToken != nil)
            let (header, claims) = try await h.verifiedIDToken(body.idToken)
            #expect(header["alg"] as? String == "RS256" && header["typ"] as? String == "JWT")
            #expect(claims["iss"] as? String == Harness.issuer)
            #expect(claims["aud"] as? String == "shop")
            #expect(claims["sub"] as? String == userId)
            #expect(claims["nonce"] as? String == "n-456")
            #expect(claims["acr"] as? String == "aal1" && claims["amr"] as? [String] == ["pwd"])
            #expect(claims["preferred_username"] as? String == "ana")
            #expect(claims["at_hash"] as? String == TokenEndpointService.leftHalfHash(body.accessToken))
            #expect(claims["sid"] is String && claims["auth_time"] is Int)
            let expiry = try #require(claims["exp"] as? Int)
            let issuedAt = try #require(claims["iat"] as? Int)
            let lifetime = expiry - issuedAt
            #expect(lifetime > 0 && lifetime <= 600)
            let access = try jwtParts(body.accessToken)
            #expect(access.payload["aud"] as? String == "shop" && access.payload["scope"] as? String == body.scope)

            let info = try h.decode(UserInfo.self, try await h.userInfo(body.accessToken))
            #expect(info == UserInfo(sub: userId, preferredUsername: "ana"))
            let posted = try await h.send(.post, "/oauth2/userinfo", headers: [.authorization: "Bearer \(body.accessToken)"])
            #expect(posted.status == .ok)
        }
    }

    @Test func withoutProfileTheUsernameIsNotReleasedAndWithoutOfflineAccessNoRefreshToken() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site)
            let (redirect, _) = try await h.signIn(site.query(scope: "openid email"))
            let body = try h.decode(OAuthTokenResponse.self, try await h.redeem(try #require(redirect.parameters["code"]), site))
            #expect(body.scope == "openid" && body.refreshToken == nil)
            let (_, claims) = try await h.verifiedIDToken(body.idToken)
            #expect(claims["preferred_username"] == nil)
            #expect(try h.decode(UserInfo.self, try await h.userInfo(body.accessToken)).preferredUsername == nil)
        }
    }

    @Test func theProviderSessionSignsInAgainAtOnceUnlessPromptLoginOrMaxAgeSayOtherwise() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site)
            let (_, cookie) = try await h.signIn(site.query())

            let again = try await h.authorize(site.query(), cookie: cookie)
            #expect(again.status == .seeOther)
            let redirect = try Redirect(try #require(again.headers[.location]))
            #expect(redirect.base == site.redirectURI && redirect.parameters["code"] != nil)
            #expect(redirect.parameters["iss"] == Harness.issuer)

            let quiet = try Redirect(try #require(try await h.authorize(site.query(["prompt": "none"]), cookie: cookie).headers[.location]))
            #expect(quiet.parameters["code"] != nil)

            _ = try h.signInRequestId(try await h.authorize(site.query(["prompt": "login"]), cookie: cookie))
            h.clock.advance(by: 120)
            _ = try h.signInRequestId(try await h.authorize(site.query(["max_age": "60"]), cookie: cookie))
            let tooOld = try Redirect(
                try #require(try await h.authorize(site.query(["max_age": "60", "prompt": "none"]), cookie: cookie).headers[.location]))
            #expect(tooOld.parameters["error"] == "login_required")
            let young = try Redirect(try #require(try await h.authorize(site.query(["max_age": "600"]), cookie: cookie).headers[.location]))
            #expect(young.parameters["code"] != nil)

            // max_age=0 asks for a new sign-in, which then satisfies it.
            let fresh = try h.signInRequestId(try await h.authorize(site.query(["max_age": "0"]), cookie: cookie))
            let completed = try await h.completeSignIn(fresh, with: try await h.pageSession())
            #expect(try Redirect(try h.decode(SignInRedirect.self, completed).redirectTo).parameters["code"] != nil)
        }
    }

    @Test func promptNoneWithoutASessionIsLoginRequiredAndNeverAPage() async throws {
        try await Harness.run { h in
            var site = RelyingSite()
            try await h.register(&site)
            let response = try await h.authorize(site.query(["prompt": "none"]))
            #expect(response.status == .seeOther)
            let redirect = try Redirect(try #require(response.headers[.location]))
            #expect(redirect.base == site.redirectURI)
            #expect(redirect.parameters["error"] == "login_required")
            #expect(redirect.parameters["state"] == "st-123" && redirect.parameters["iss"] == Harness.issuer)
            #expect(redirect.parameters["error_description"] != nil)
        }
    }

    @Test func acrValuesAAL2RefusesAPasswordSignIn() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site)
            let requestId = try h.signInRequestId(try await h.authorize(site.query(["acr_values": "aal2"])))
            #expect(try h.decode(SignInRequest.self, try await h.send(.get, "/oauth2/sign-in/\(requestId)")).requiredAcr == "aal2")
            let refused = try await h.completeSignIn(requestId, with: try await h.pageSession())
            try h.expectProblem(refused, 403, .insufficientAuthentication)
            #expect(refused.headers[.setCookie] == nil)

            // A password provider session does not satisfy a later aal2 request either.
            let (_, cookie) = try await h.signIn(site.query(["acr_values": "aal1 aal2"]))
            _ = try h.signInRequestId(try await h.authorize(site.query(["acr_values": "aal2"]), cookie: cookie))
            let quiet = try Redirect(
                try #require(try await h.authorize(site.query(["acr_values": "aal2", "prompt": "none"]), cookie: cookie).headers[.location]))
            #expect(quiet.parameters["error"] == "login_required")
        }
    }

    @Test func aSignInMustBeMadeOnThePageAfterTheRequest() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site)
            let earlier = try await h.pageSession()
            h.clock.advance(by: 5)
            let requestId = try h.signInRequestId(try await h.authorize(site.query()))
            try h.expectProblem(try await h.completeSignIn(requestId, with: earlier), 401, .reauthenticationRequired)
            let unauthenticated = try await h.send(.post, "/oauth2/sign-in/\(requestId)/complete")
            try h.expectProblem(unauthenticated, 401, .unauthorized)
            // The request is still there for a fresh sign-in, and only once.
            #expect(try await h.completeSignIn(requestId, with: try await h.pageSession()).status == .ok)
            try h.expectProblem(try await h.completeSignIn(requestId, with: try await h.pageSession()), 404, .notFound)
        }
    }

    @Test func cancellingSendsAccessDeniedBackToTheClient() async throws {
        try await Harness.run { h in
            var site = RelyingSite()
            try await h.register(&site)
            let requestId = try h.signInRequestId(try await h.authorize(site.query()))
            let response = try await h.send(.post, "/oauth2/sign-in/\(requestId)/cancel")
            #expect(response.status == .ok)
            let redirect = try Redirect(try h.decode(SignInRedirect.self, response).redirectTo)
            #expect(redirect.base == site.redirectURI && redirect.parameters["error"] == "access_denied")
            #expect(redirect.parameters["state"] == "st-123" && redirect.parameters["iss"] == Harness.issuer)
            try h.expectProblem(try await h.send(.get, "/oauth2/sign-in/\(requestId)"), 404, .notFound)
        }
    }

    @Test func untrustedClientsAndRedirectURIsGetAPageNeverARedirect() async throws {
        try await Harness.run { h in
            var site = RelyingSite()
            try await h.register(&site)
            let queries = [
                site.query(["client_id": "unknown"]),
                site.query(["client_id": nil]),
                site.query(["redirect_uri": "https://evil.example/callback"]),
                site.query(["redirect_uri": site.redirectURI + "/"]),
                site.query(["redirect_uri": nil]),
                site.query() + "&client_id=shop",
                site.query() + "&redirect_uri=" + PercentEncoding.unreserved(site.redirectURI),
                "client_id=shop&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Anothing",
            ]
            for query in queries {
                let response = try await h.authorize(query)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.headers[.location] == nil, "\(query)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(query)")
            }
        }
    }

    @Test func otherRefusalsGoBackToTheClientWithStateAndIssuer() async throws {
        try await Harness.run { h in
            var site = RelyingSite()
            try await h.register(&site)
            let cases: [(String, String)] = [
                (site.query(["code_challenge": nil]), "invalid_request"),
                (site.query(["code_challenge_method": nil]), "invalid_request"),
                (site.query(["code_challenge_method": "plain"]), "invalid_request"),
                (site.query(["code_challenge": "short"]), "invalid_request"),
                (site.query(["response_type": nil]), "invalid_request"),
                (site.query(["response_type": "token"]), "unsupported_response_type"),
                (site.query(scope: "profile"), "invalid_scope"),
                (site.query(["prompt": "none login"]), "invalid_request"),
                (site.query(["max_age": "-1"]), "invalid_request"),
                (site.query(["acr_values": "gold"]), "invalid_request"),
                (site.query() + "&nonce=again", "invalid_request"),
            ]
            for (query, error) in cases {
                let response = try await h.authorize(query)
                #expect(response.status == .seeOther, "\(query)")
                let redirect = try Redirect(try #require(response.headers[.location]))
                #expect(redirect.base == site.redirectURI, "\(query)")
                #expect(redirect.parameters["error"] == error, "\(query)")
                #expect(redirect.parameters["state"] == "st-123", "\(query)")
                #expect(redirect.parameters["iss"] == Harness.issuer, "\(query)")
            }
        }
    }

    @Test func aCodeIsBoundToItsClientItsRedirectURIAndItsVerifierAndLivesSixtySeconds() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site)
            var other = RelyingSite(clientId: "other-shop")
            try await h.register(&other)
            let (redirect, cookie) = try await h.signIn(site.query())
            let code = try #require(redirect.parameters["code"])

            #expect(try h.oauthError(try await h.redeem(code, site, verifier: SecretDigest.randomToken(bytes: 48))) == "invalid_grant")
            #expect(try h.oauthError(try await h.redeem(code, site, redirectURI: "https://shop.example/other")) == "invalid_grant")
            #expect(try h.oauthError(try await h.redeem(code, other, verifier: site.verifier)) == "invalid_grant")
            let missing = try await h.postForm(
                "/oauth2/token", ["grant_type": "authorization_code", "code": code, "client_id": "shop", "redirect_uri": site.redirectURI])
            #expect(try missing.status == .badRequest && h.oauthError(missing) == "invalid_request")
            // None of those spent it.
            #expect(try await h.redeem(code, site).status == .ok)

            let late = try h.code(try await h.authorize(site.query(), cookie: cookie))
            h.clock.advance(by: 61)
            #expect(try h.oauthError(try await h.redeem(late, site)) == "invalid_grant")
        }
    }

    @Test func aCodeUsedTwiceIsRefusedAndEndsWhatItsFirstUseIssued() async throws {
        try await Harness.run { h in
            let (site, code, _) = try await h.signedInShop()
            let first = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            #expect(try await h.userInfo(first.accessToken).status == .ok)

            let second = try await h.redeem(code, site)
            #expect(try second.status == .badRequest && h.oauthError(second) == "invalid_grant")
            let dead = try await h.userInfo(first.accessToken)
            #expect(dead.status == .unauthorized)
            #expect(dead.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#)
            let firstRefresh = try #require(first.refreshToken)
            #expect(try h.oauthError(try await h.refresh(firstRefresh, site)) == "invalid_grant")
        }
    }

    @Test func concurrentRedemptionsOfOneCodeIssueOneSession() async throws {
        try await Harness.run { h in
            let (site, code, _) = try await h.signedInShop()
            let site2 = site
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { Int(try await h.redeem(code, site2).status.code) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count <= 1, "\(statuses)")
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 400 }, "\(statuses)")
        }
    }

    @Test func confidentialClientsAuthenticateWithBasicOrThePostedSecretOnly() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site, confidential: true)
            let secret = try #require(site.secret)
            #expect(secret.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_".unicodeScalars.contains($0)) })

            func code() async throws -> String {
                try #require(try await h.signIn(site.query()).redirect.parameters["code"])
            }
            let form: (String) -> [String: String] = { code in
                ["grant_type": "authorization_code", "code": code, "redirect_uri": site.redirectURI, "code_verifier": site.verifier]
            }
            let wrongBasic = try await h.postForm("/oauth2/token", form(try await code()), basic: ("shop", "wrong"))
            #expect(try wrongBasic.status == .unauthorized && h.oauthError(wrongBasic) == "invalid_client")
            #expect(wrongBasic.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)

            var withoutSecret = form(try await code())
            withoutSecret["client_id"] = "shop"
            let none = try await h.postForm("/oauth2/token", withoutSecret)
            #expect(try none.status == .unauthorized && h.oauthError(none) == "invalid_client")
            #expect(none.headers[.wwwAuthenticate] == nil)

            var wrongPost = withoutSecret
            wrongPost["client_secret"] = "wrong"
            #expect(try await h.postForm("/oauth2/token", wrongPost).status == .unauthorized)

            var both = form(try await code())
            both["client_secret"] = secret
            #expect(try h.oauthError(try await h.postForm("/oauth2/token", both, basic: ("shop", secret))) == "invalid_request")

            var posted = form(try await code())
            posted["client_id"] = "shop"
            posted["client_secret"] = secret
            #expect(try await h.postForm("/oauth2/token", posted).status == .ok)
            var basicWithId = form(try await code())
            basicWithId["client_id"] = "shop"
            #expect(try await h.postForm("/oauth2/token", basicWithId, basic: ("shop", secret)).status == .ok)

            // A public client that sends a secret is refused.
            var publicSite = RelyingSite(clientId: "public-shop")
            try await h.register(&publicSite)
            let publicCode = try #require(try await h.signIn(publicSite.query()).redirect.parameters["code"])
            var publicForm = ["grant_type": "authorization_code", "code": publicCode, "redirect_uri": publicSite.redirectURI,
                "code_verifier": publicSite.verifier, "client_id": "public-shop", "client_secret": "made-up"]
            #expect(try h.oauthError(try await h.postForm("/oauth2/token", publicForm)) == "invalid_client")
            publicForm["client_secret"] = nil
            #expect(try await h.postForm("/oauth2/token", publicForm).status == .ok)

            let unsupported = try await h.postForm("/oauth2/token", ["grant_type": "password", "client_id": "public-shop"])
            #expect(try h.oauthError(unsupported) == "unsupported_grant_type")
            let json = try await h.send(.post, "/oauth2/token", raw: "{}", headers: [.contentType: "application/json"])
            #expect(try json.status == .badRequest && h.oauthError(json) == "invalid_request")
        }
    }

    @Test func refreshTokensRotateAndAReusedOneEndsTheWholeFamily() async throws {
        try await Harness.run { h in
            let (site, code, _) = try await h.signedInShop()
            let first = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            let firstRefresh = try #require(first.refreshToken)
            h.clock.advance(by: 30)
            let second = try h.decode(OAuthTokenResponse.self, try await h.refresh(firstRefresh, site))
            let secondRefresh = try #require(second.refreshToken)
            #expect(secondRefresh != firstRefresh)
            let (_, claims) = try await h.verifiedIDToken(second.idToken)
            #expect(claims["nonce"] == nil && claims["aud"] as? String == "shop")
            #expect(try await h.userInfo(second.accessToken).status == .ok)

            var other = RelyingSite(clientId: "other-shop")
            try await h.register(&other)
            #expect(try h.oauthError(try await h.refresh(secondRefresh, other)) == "invalid_grant")

            #expect(try h.oauthError(try await h.refresh(firstRefresh, site)) == "invalid_grant")
            #expect(try h.oauthError(try await h.refresh(secondRefresh, site)) == "invalid_grant")
            #expect(try await h.userInfo(second.accessToken).status == .unauthorized)
        }
    }

    @Test func pushedRequestsAreSingleUseAndTheirClientsOnly() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site, confidential: true)
            let secret = try #require(site.secret)
            var form: [String: String] = [:]
            for pair in FormDecoding.pairs(Substring(site.query())) ?? [] { form[pair.name] = pair.value }
            form["client_id"] = nil

            let pushed = try await h.postForm("/oauth2/par", form, basic: ("shop", secret))
            #expect(pushed.status == .created && pushed.headers[.cacheControl] == "no-store")
            let body = try h.decode(PushedAuthorizationResponse.self, pushed)
            #expect(body.expiresIn == 60 && body.requestUri.hasPrefix("urn:ietf:params:oauth:request_uri:"))

            var other = RelyingSite(clientId: "other-shop")
            try await h.register(&other)
            let foreign = try await h.authorize("client_id=other-shop&request_uri=" + PercentEncoding.unreserved(body.requestUri))
            #expect(foreign.status == .badRequest && foreign.headers[.location] == nil)

            // Another client's attempt did not spend it; its own client uses it once.
            let ownQuery = "client_id=shop&request_uri=" + PercentEncoding.unreserved(body.requestUri)
            let requestId = try h.signInRequestId(try await h.authorize(ownQuery))
            #expect(try await h.authorize(ownQuery).status == .badRequest)
            // A sign-in request's id is not a request_uri.
            #expect(try await h.authorize("client_id=shop&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3A" + requestId).status == .badRequest)
            let completed = try await h.completeSignIn(requestId, with: try await h.pageSession())
            let redirect = try Redirect(try h.decode(SignInRedirect.self, completed).redirectTo)
            #expect(redirect.parameters["state"] == "st-123" && redirect.parameters["code"] != nil)
            let code = try #require(redirect.parameters["code"])
            #expect(try await h.redeem(code, site).status == .ok)

            let expiring = try h.decode(PushedAuthorizationResponse.self, try await h.postForm("/oauth2/par", form, basic: ("shop", secret)))
            h.clock.advance(by: 61)
            #expect(try await h.authorize("client_id=shop&request_uri=" + PercentEncoding.unreserved(expiring.requestUri)).status == .badRequest)

            var bad = form
            bad["code_challenge_method"] = "plain"
            let refused = try await h.postForm("/oauth2/par", bad, basic: ("shop", secret))
            #expect(try refused.status == .badRequest && h.oauthError(refused) == "invalid_request")
            bad = form
            bad["redirect_uri"] = "https://evil.example/callback"
            #expect(try h.oauthError(try await h.postForm("/oauth2/par", bad, basic: ("shop", secret))) == "invalid_request")
            #expect(try await h.postForm("/oauth2/par", form, basic: ("shop", "wrong")).status == .unauthorized)
        }
    }

    @Test func logoutEndsTheProviderSessionAndEverythingIssuedThroughIt() async throws {
        try await Harness.run { h in
            let (site, code, cookie) = try await h.signedInShop()
            let tokens = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            let pending = try h.code(try await h.authorize(site.query(), cookie: cookie))

            let query = "id_token_hint=\(tokens.idToken)&post_logout_redirect_uri="
                + PercentEncoding.unreserved(site.postLogoutURI) + "&state=bye-1"
            let logout = try await h.send(.get, "/oauth2/logout?" + query, headers: [.cookie: cookie])
            #expect(logout.status == .seeOther)
            #expect(logout.headers[.location] == site.postLogoutURI + "?state=bye-1")
            #expect(logout.headers[.setCookie]?.contains("Max-Age=0") == true)

            #expect(try await h.userInfo(tokens.accessToken).status == .unauthorized)
            let refreshToken = try #require(tokens.refreshToken)
            #expect(try h.oauthError(try await h.refresh(refreshToken, site)) == "invalid_grant")
            #expect(try h.oauthError(try await h.redeem(pending, site)) == "invalid_grant")
            _ = try h.signInRequestId(try await h.authorize(site.query(), cookie: cookie))

            // An unregistered URI still signs out, and shows a page instead of redirecting.
            let (redirect, cookie2) = try await h.signIn(site.query())
            let second = try h.decode(
                OAuthTokenResponse.self, try await h.redeem(try #require(redirect.parameters["code"]), site))
            let elsewhere = try await h.send(
                .get, "/oauth2/logout?id_token_hint=\(second.idToken)&post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F",
                headers: [.cookie: cookie2])
            #expect(elsewhere.status == .ok && elsewhere.headers[.location] == nil)
            _ = try h.signInRequestId(try await h.authorize(site.query(), cookie: cookie2))
        }
    }

    @Test func aPasswordChangeEndsTheProviderSession() async throws {
        try await Harness.run { h in
            let (site, code, cookie) = try await h.signedInShop()
            let tokens = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            let userId = try #require(try await h.store.user(username: "ana")).id
            // As PUT /v1/account/password stores it.
            try await h.store.setPassword(
                userId: userId, passwordHash: "changed", keepingSession: "none", at: h.now,
                notice: SecurityNotices.draft(.passwordChanged, userId: userId, actingDevice: nil, ip: nil, at: h.now))
            _ = try h.signInRequestId(try await h.authorize(site.query(), cookie: cookie))
            #expect(try await h.userInfo(tokens.accessToken).status == .unauthorized)
        }
    }

    @Test func theProviderSessionEndsWithTheAppsMaximumSessionLifetime() async throws {
        try await Harness.run { h in
            try await h.createAccount()
            var site = RelyingSite()
            try await h.register(&site)
            let (_, cookie) = try await h.signIn(site.query())
            var policy = AppPolicy(clientId: "shop", publisher: "shops")
            policy.sessionMaxLifetimeSeconds = 3_600
            try await h.saveApp(policy)
            h.clock.advance(by: 3_601)
            _ = try h.signInRequestId(try await h.authorize(site.query(), cookie: cookie))
        }
    }

    @Test func providerTokensAreRefusedByTheV1APIAndRevocationEndsThem() async throws {
        try await Harness.run { h in
            let (site, code, _) = try await h.signedInShop()
            let tokens = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            try h.expectProblem(
                try await h.send(.get, "/v1/account", headers: [.authorization: "Bearer \(tokens.accessToken)"]), 401, .unauthorized)
            try h.expectProblem(
                try await h.send(.get, "/v1/devices", headers: [.authorization: "Bearer \(tokens.accessToken)"]), 401, .unauthorized)

            // Nor is its refresh token: it is the client's, at /oauth2/token with the client's authentication.
            let refreshToken = try #require(tokens.refreshToken)
            try h.expectProblem(
                try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: refreshToken)), 401,
                .refreshTokenInvalid)
            let rotated = try h.decode(OAuthTokenResponse.self, try await h.refresh(refreshToken, site))

            let noToken = try await h.send(.get, "/oauth2/userinfo")
            #expect(noToken.status == .unauthorized && noToken.headers[.wwwAuthenticate] == "Bearer")

            #expect(try await h.postForm("/oauth2/revoke", ["token": "nothing", "client_id": "shop"]).status == .ok)
            var other = RelyingSite(clientId: "other-shop")
            try await h.register(&other)
            let current = try #require(rotated.refreshToken)
            #expect(try await h.postForm("/oauth2/revoke", ["token": current, "client_id": "other-shop"]).status == .ok)
            #expect(try await h.userInfo(rotated.accessToken).status == .ok)
            #expect(try await h.postForm("/oauth2/revoke", ["token": current, "client_id": "shop"]).status == .ok)
            #expect(try await h.userInfo(rotated.accessToken).status == .unauthorized)
        }
    }

    @Test func anES256ClientGetsES256IDTokens() async throws {
        try await Harness.run { h in
            let (site, code, _) = try await h.signedInShop(idTokenAlgorithm: "ES256")
            let tokens = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            let (header, _) = try await h.verifiedIDToken(tokens.idToken)
            #expect(header["alg"] as? String == "ES256")
        }
    }

    @Test func aPhoneApprovalIsAAL2WithHardwareAndFingerprintAndEndsWithThePhone() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            var site = RelyingSite()
            try await h.register(&site)
            let requestId = try h.signInRequestId(try await h.authorize(site.query(["acr_values": "aal2"])))

            // The page's phone approval (web login, number matching), as WebLoginTests drive it.
            let started = try h.decode(
                WebLoginStarted.self, try await h.send(.post, "/v1/web-logins", json: WebLoginRequest(username: "ana")))
            let item = try #require(
                try await h.inboxItems(device, deviceId: enrolled.deviceId).first { $0.id == started.webLoginId })
            let decision = try await device.decision(
                deviceId: enrolled.deviceId, challenge: item.challenge, number: started.number, now: h.now)
            #expect(try await h.decide("web-logins", started.webLoginId, decision).status == .ok)
            let polled = try h.decode(
                WebLoginPoll.self,
                try await h.send(.get, "/v1/web-logins/\(started.webLoginId)", headers: [.pollSecret: started.pollSecret]))
            let pageSession = try #require(polled.session)

            let completed = try await h.completeSignIn(requestId, with: pageSession)
            #expect(completed.status == .ok)
            let cookie = String(try #require(completed.headers[.setCookie]).prefix { $0 != ";" })
            let code = try #require(try Redirect(try h.decode(SignInRedirect.self, completed).redirectTo).parameters["code"])
            let tokens = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            let (_, claims) = try await h.verifiedIDToken(tokens.idToken)
            #expect(claims["acr"] as? String == "aal2" && claims["amr"] as? [String] == ["hwk", "fpt", "mfa"])

            // Removing the phone ends the browser's provider session and what was issued through it.
            #expect(try await h.store.revokeDevice(id: enrolled.deviceId, reason: "admin", at: h.now, notices: []))
            #expect(try await h.userInfo(tokens.accessToken).status == .unauthorized)
            _ = try h.signInRequestId(try await h.authorize(site.query(), cookie: cookie))
        }
    }

    @Test func onAnHTTPSIssuerTheCookieIsHostPrefixedAndSecure() throws {
        let cookie = ProviderCookie(issuer: "https://login.example.com")
        #expect(cookie.name == "__Host-touchstone-op")
        #expect(cookie.setting("t", lifetime: 60) == "__Host-touchstone-op=t; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure")
        #expect(cookie.clearing.hasSuffix("Max-Age=0; HttpOnly; SameSite=Lax; Secure"))
        let local = ProviderCookie(issuer: "http://localhost:8080")
        #expect(local.name == "touchstone-op" && !local.setting("t", lifetime: 60).contains("Secure"))
    }

    @Test func theRSAKeyRotatesWithTheOthersAndIDTokensFollowIt() async throws {
        try await Harness.run { h in
            let (site, code, cookie) = try await h.signedInShop()
            let before = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            let oldKid = try jwtParts(before.idToken).header["kid"] as? String
            let next = try await TokenSigner.rotate(store: h.store, now: h.now)
            let rsaKeys = try await h.store.serverKeys().filter { $0.algorithm == "RS256" }
            #expect(rsaKeys.count == 2 && rsaKeys.contains { $0.activatesAt.storedSeconds == next.activatesAt.storedSeconds })
            h.clock.advance(by: 30)
            let published = try h.decode(JWKSet.self, try await h.send(.get, "/.well-known/jwks.json")).keys
            #expect(published.filter { $0.alg == "RS256" }.count == 2)
            let soon = try h.decode(OAuthTokenResponse.self, try await h.redeem(try h.code(try await h.authorize(site.query(), cookie: cookie)), site))
            #expect(try jwtParts(soon.idToken).header["kid"] as? String == oldKid)
            h.clock.advance(by: 580)
            let later = try h.decode(OAuthTokenResponse.self, try await h.redeem(try h.code(try await h.authorize(site.query(), cookie: cookie)), site))
            let newKid = try jwtParts(later.idToken).header["kid"] as? String
            #expect(newKid != oldKid && rsaKeys.contains { $0.kid == newKid })
            _ = try await h.verifiedIDToken(later.idToken)
        }
    }

    @Test func registrationsThatTheProviderCannotUseAreRefused() throws {
        func registration(_ uris: [String], clientId: String = "shop", alg: String = "RS256") -> OIDCClientRegistration {
            OIDCClientRegistration(
                clientId: clientId, name: nil, redirectURIs: uris, postLogoutRedirectURIs: [], confidential: false,
                idTokenAlgorithm: alg)
        }
        for uri in ["http://shop.example/cb", "https://shop.example/cb#frag", "shop.example/cb", "/cb"] {
            #expect(throws: ConfigurationError.self, "\(uri)") { try registration([uri]).record(random: SystemRandom()) }
        }
        #expect(throws: ConfigurationError.self) { try registration([]).record(random: SystemRandom()) }
        #expect(throws: ConfigurationError.self) { try registration(["https://shop.example/cb"], clientId: "shop app").record(random: SystemRandom()) }
        #expect(throws: ConfigurationError.self) { try registration(["https://shop.example/cb"], alg: "HS256").record(random: SystemRandom()) }
        for uri in ["https://shop.example/cb?x=1", "http://localhost:3000/cb", "http://127.0.0.1/cb"] {
            #expect(try registration([uri]).record(random: SystemRandom()).0.redirectURIs == [uri])
        }
    }

    /// Regression (issue 29, finding 5): `http://evil.test\@localhost/cb` was registered, Foundation reading its host
    /// as `localhost` and browsers as `evil.test`. Only RFC 3986's characters, no userinfo, no fragment, for redirect
    /// and post-logout URIs alike.
    @Test func redirectURIsThatParsersCouldReadDifferentlyAreRefused() throws {
        func registration(redirect: String, postLogout: String? = nil) -> OIDCClientRegistration {
            OIDCClientRegistration(
                clientId: "shop", name: nil, redirectURIs: [redirect], postLogoutRedirectURIs: postLogout.map { [$0] } ?? [],
                confidential: false, idTokenAlgorithm: "RS256")
        }
        let refused = [
            #"http://evil.test\@localhost/cb"#, #"https://shop.example\cb"#, "https://shop.example/c b", "https://shop.example/cb ",
            " https://shop.example/cb", "https://shop.example/c\tb", "https://shop.example/cb\n", "https://shop.example/cb\u{0}",
            "https://shop.example/cb\u{7F}", "https://shöp.example/cb", "https://shop.example/café", "https://shop.example/cb\u{2028}",
            "https://shop.example/%zz", "https://shop.example/%4", "https://shop.example/cb?x=%", "https://shop.example/{cb}",
            "https://shop.example/c|b", "https://shop.example/\"cb\"", "https://shop.example/<cb>", "https://shop.example/c^b",
            "https://user@shop.example/cb", "https://user:secret@shop.example/cb", "https://@shop.example/cb",
            "http://evil.test@localhost/cb", "http://localhost@evil.test/cb", "https://shop.example/cb#", "https://shop.example/cb#x",
            "http://localhost.evil.test/cb", "http://127.0.0.1.evil.test/cb",
        ]
        for uri in refused {
            #expect(throws: ConfigurationError.self, "\(uri.debugDescription)") { try registration(redirect: uri).record(random: SystemRandom()) }
            #expect(throws: ConfigurationError.self, "post-logout \(uri.debugDescription)") {
                try registration(redirect: "https://shop.example/cb", postLogout: uri).record(random: SystemRandom())
            }
        }
        for uri in [
            "https://shop.example/caf%C3%A9", "https://shop.example/cb?next=a@b&x=(1);y='2'*+,!$", "https://shop.example:8443/a/b~c_d-e.f",
            "http://LOCALHOST:8080/cb", "http://127.0.0.1:1/cb?x=%2F", "https://[2001:db8::1]/cb",
        ] {
            let record = try registration(redirect: uri, postLogout: uri).record(random: SystemRandom()).0
            #expect(record.redirectURIs == [uri] && record.postLogoutRedirectURIs == [uri])
        }
    }
}
