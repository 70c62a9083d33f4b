import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneStorage

/// RP-initiated logout (PROTOCOL.md "OpenID Connect provider", **Logout**): it acts on the browser's provider session
/// only; an ID token hint of that session ends it at once, anything else only after the user confirms on the page with
/// a token bound to that session, and a hint alone ends nothing. On both stores.
@Suite struct ProviderLogoutTests {
    @Test func theCookieAloneEndsNothingUntilTheUserConfirmsWithThePagesToken() async throws {
        try await Harness.run { h in
            let (site, code, cookie) = try await h.signedInShop()
            let tokens = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            let (_, otherCookie) = try await h.signIn(site.query())

            // Any page can send the browser here: the page asks, and nothing ends.
            let asked = try await h.logout("", cookie: cookie)
            #expect(asked.status == .ok && asked.headers[.location] == nil && asked.headers[.setCookie] == nil)
            #expect(h.text(asked).contains("Sign out of Touchstone?"))
            let token = try h.confirmationToken(asked)
            #expect(try await h.userInfo(tokens.accessToken).status == .ok)
            #expect(try await h.isSignedIn(cookie, site))
            // So does a POST without parameters.
            #expect(try await h.postLogout([:], cookie: cookie).status == .ok)
            #expect(try await h.isSignedIn(cookie, site))

            // Another site cannot submit the form: without the token, with a wrong one, or with another session's.
            let otherToken = try h.confirmationToken(try await h.logout("", cookie: otherCookie))
            #expect(otherToken != token)
            for wrong in [nil, "wrong", otherToken, String(token.dropLast())] {
                let refused = try await h.confirmLogout(wrong, cookie: cookie)
                #expect(refused.status == .forbidden && refused.headers[.setCookie] == nil)
                #expect(h.text(refused).contains("Sign out of Touchstone?"))
            }
            // Nor can the right token without the browser's cookie.
            let cookieless = try await h.confirmLogout(token, cookie: nil)
            #expect(cookieless.status == .ok && cookieless.headers[.setCookie] == nil)
            #expect(try await h.userInfo(tokens.accessToken).status == .ok)
            #expect(try await h.isSignedIn(cookie, site))
            #expect(try await h.isSignedIn(otherCookie, site))

            // The user confirms: that session ends with every token issued through it; the other one goes on.
            let confirmed = try await h.confirmLogout(token, cookie: cookie)
            #expect(confirmed.status == .ok && confirmed.headers[.location] == nil)
            #expect(h.text(confirmed).contains("You are signed out"))
            #expect(confirmed.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await h.userInfo(tokens.accessToken).status == .unauthorized)
            let refreshToken = try #require(tokens.refreshToken)
            #expect(try h.oauthError(try await h.refresh(refreshToken, site)) == "invalid_grant")
            #expect(try await !h.isSignedIn(cookie, site))
            #expect(try await h.isSignedIn(otherCookie, site))
            // The ended session's token ends nothing more, and the page no longer asks.
            let again = try await h.logout("", cookie: cookie)
            #expect(again.status == .ok && !h.text(again).contains("Sign out of Touchstone?"))
        }
    }

    @Test func aHintOfTheCookiesSessionEndsItExpiredOrNotAndGoesBackOnlyToARegisteredURI() async throws {
        try await Harness.run { h in
            let (site, code, cookie) = try await h.signedInShop()
            let tokens = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            // The ID token lives 10 minutes; a hint counts expired.
            h.clock.advance(by: 660)
            let refreshed = try h.decode(OAuthTokenResponse.self, try await h.refresh(try #require(tokens.refreshToken), site))

            let logout = try await h.logout(
                "id_token_hint=\(tokens.idToken)&post_logout_redirect_uri=\(PercentEncoding.unreserved(site.postLogoutURI))"
                    + "&state=bye-1", cookie: cookie)
            #expect(logout.status == .seeOther)
            #expect(logout.headers[.location] == site.postLogoutURI + "?state=bye-1")
            #expect(logout.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await h.userInfo(refreshed.accessToken).status == .unauthorized)
            #expect(try h.oauthError(try await h.refresh(try #require(refreshed.refreshToken), site)) == "invalid_grant")
            #expect(try await !h.isSignedIn(cookie, site))

            // POST (form) alike, with the hint's own client_id and no state.
            let (redirect, cookie2) = try await h.signIn(site.query())
            let second = try h.decode(
                OAuthTokenResponse.self, try await h.redeem(try #require(redirect.parameters["code"]), site))
            let pending = try h.code(try await h.authorize(site.query(), cookie: cookie2))
            let posted = try await h.postLogout(
                ["id_token_hint": second.idToken, "client_id": site.clientId, "post_logout_redirect_uri": site.postLogoutURI],
                cookie: cookie2)
            #expect(posted.status == .seeOther && posted.headers[.location] == site.postLogoutURI)
            #expect(try await h.userInfo(second.accessToken).status == .unauthorized)
            #expect(try h.oauthError(try await h.redeem(pending, site)) == "invalid_grant")
            #expect(try await !h.isSignedIn(cookie2, site))

            // An unregistered URI: signed out all the same, and the signed-out page instead of a redirect.
            let (redirect3, cookie3) = try await h.signIn(site.query())
            let third = try h.decode(
                OAuthTokenResponse.self, try await h.redeem(try #require(redirect3.parameters["code"]), site))
            let elsewhere = try await h.logout(
                "id_token_hint=\(third.idToken)&post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F&state=x",
                cookie: cookie3)
            #expect(elsewhere.status == .ok && elsewhere.headers[.location] == nil)
            #expect(h.text(elsewhere).contains("You are signed out"))
            #expect(try await h.userInfo(third.accessToken).status == .unauthorized)
            #expect(try await !h.isSignedIn(cookie3, site))
        }
    }

    @Test func aHintThatDoesNotCountOrNamesAnotherSessionOnlyAsks() async throws {
        try await Harness.run { h in
            let (site, code, cookie) = try await h.signedInShop()
            let tokens = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            var other = RelyingSite(clientId: "blog", redirectURI: "https://blog.example/callback")
            other.postLogoutURI = "https://blog.example/bye"
            try await h.register(&other)

            // Signed by the provider with another iss; a broken signature; a client_id that is not the hint's aud.
            var claims = try JSONDecoder().decode(
                IDTokenClaims.self, from: try #require(Base64URL.decode(String(tokens.idToken.split(separator: ".")[1]))))
            claims.iss = "https://other.example"
            let otherIssuer = try await h.runtime.environment.signer.signIDToken(claims, algorithm: .rs256)
            var parts = tokens.idToken.split(separator: ".").map(String.init)
            var signature = Array(parts[2])
            signature[10] = signature[10] == "A" ? "B" : "A"
            parts[2] = String(signature)
            let badSignature = parts.joined(separator: ".")
            // A hint of another session of the same user, at the same client.
            let (redirect, otherCookie) = try await h.signIn(site.query())
            let otherSession = try h.decode(
                OAuthTokenResponse.self, try await h.redeem(try #require(redirect.parameters["code"]), site))

            let uri = PercentEncoding.unreserved(site.postLogoutURI)
            for query in [
                "id_token_hint=\(otherIssuer)&post_logout_redirect_uri=\(uri)&state=s",
                "id_token_hint=\(badSignature)&post_logout_redirect_uri=\(uri)&state=s",
                "id_token_hint=\(tokens.idToken)&client_id=blog&post_logout_redirect_uri=\(uri)&state=s",
                "id_token_hint=\(tokens.idToken)&id_token_hint=\(tokens.idToken)&post_logout_redirect_uri=\(uri)",
                "id_token_hint=\(otherSession.idToken)&post_logout_redirect_uri=\(uri)&state=s",
                "id_token_hint=not-a-token",
            ] {
                let asked = try await h.logout(query, cookie: cookie)
                #expect(asked.status == .ok && asked.headers[.location] == nil && asked.headers[.setCookie] == nil, "\(query)")
                #expect(h.text(asked).contains("Sign out of Touchstone?"), "\(query)")
                #expect(try await h.userInfo(tokens.accessToken).status == .ok, "\(query)")
                #expect(try await h.isSignedIn(cookie, site), "\(query)")
                #expect(try await h.isSignedIn(otherCookie, site), "\(query)")
            }
            // The same as a form.
            let posted = try await h.postLogout(
                ["id_token_hint": tokens.idToken, "client_id": "blog", "post_logout_redirect_uri": site.postLogoutURI],
                cookie: cookie)
            #expect(posted.status == .ok && h.text(posted).contains("Sign out of Touchstone?"))
            #expect(try await h.isSignedIn(cookie, site))
        }
    }

    @Test func aHintWithoutTheCookieEndsNothing() async throws {
        try await Harness.run { h in
            let (site, code, cookie) = try await h.signedInShop()
            let tokens = try h.decode(OAuthTokenResponse.self, try await h.redeem(code, site))
            let query =
                "id_token_hint=\(tokens.idToken)&post_logout_redirect_uri=\(PercentEncoding.unreserved(site.postLogoutURI))"
                + "&state=bye"
            for response in [
                try await h.logout(query, cookie: nil),
                try await h.postLogout(
                    ["id_token_hint": tokens.idToken, "post_logout_redirect_uri": site.postLogoutURI], cookie: nil),
            ] {
                #expect(response.status == .ok && response.headers[.location] == nil)
                #expect(response.headers[.setCookie] == nil)
                #expect(h.text(response).contains("not signed in"))
            }
            #expect(try await h.userInfo(tokens.accessToken).status == .ok)
            #expect(try await h.isSignedIn(cookie, site))
        }
    }

    @Test func withoutAProviderSessionThePageSaysTheBrowserIsSignedOut() async throws {
        try await Harness.run { h in
            let none = try await h.logout("", cookie: nil)
            #expect(none.status == .ok && none.headers[.setCookie] == nil)
            #expect(h.text(none).contains("This browser is not signed in to Touchstone."))
            #expect(!h.text(none).contains("<form"))
            // A cookie of no session, or of one that ended: signed out, and the stale cookie is cleared.
            let unknown = try await h.logout("", cookie: "touchstone-op=unknown")
            #expect(unknown.status == .ok && h.text(unknown).contains("not signed in"))
            #expect(unknown.headers[.setCookie]?.contains("Max-Age=0") == true)
            let (site, _, cookie) = try await h.signedInShop()
            h.clock.advance(by: ProviderService.maximumSessionLifetime + 1)
            let expired = try await h.logout("", cookie: cookie)
            #expect(expired.status == .ok && h.text(expired).contains("not signed in"))
            #expect(try await !h.isSignedIn(cookie, site))
            // A malformed request is refused with a page.
            #expect(try await h.logout("state=%zz", cookie: nil).status == .badRequest)
            let notAForm = try await h.send(
                .post, "/oauth2/logout", raw: "{}", headers: [.contentType: "application/json"])
            #expect(notAForm.status == .badRequest)
        }
    }
}

extension Harness {
    fileprivate func logout(_ query: String, cookie: String?) async throws -> TestResponse {
        try await send(.get, "/oauth2/logout" + (query.isEmpty ? "" : "?" + query), headers: Self.cookie(cookie))
    }

    fileprivate func postLogout(_ form: [String: String], cookie: String?) async throws -> TestResponse {
        try await postForm(Endpoint.oauthLogoutPost.template, form, cookie: cookie)
    }

    fileprivate func confirmLogout(_ token: String?, cookie: String?) async throws -> TestResponse {
        try await postForm(Endpoint.oauthLogoutConfirm.template, token.map { ["token": $0] } ?? [:], cookie: cookie)
    }

    private func postForm(_ path: String, _ form: [String: String], cookie: String?) async throws -> TestResponse {
        var headers = Self.cookie(cookie)
        headers[.contentType] = "application/x-www-form-urlencoded"
        let body = form.map { "\($0.key)=\(PercentEncoding.unreserved($0.value))" }.sorted().joined(separator: "&")
        return try await send(.post, path, raw: body, headers: headers)
    }

    private static func cookie(_ cookie: String?) -> HTTPFields {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        return headers
    }

    fileprivate func text(_ response: TestResponse) -> String {
        String(buffer: response.body)
    }

    /// The token of the confirmation page's form, which posts it to `/oauth2/logout/confirm`.
    fileprivate func confirmationToken(_ response: TestResponse) throws -> String {
        let page = text(response)
        #expect(page.contains(#"<form method="post" action="/oauth2/logout/confirm">"#))
        let marker = #"name="token" value=""#
        let start = try #require(page.range(of: marker)).upperBound
        return String(page[start...].prefix { $0 != "\"" })
    }

    /// Whether `cookie` still names a live provider session: the authorization endpoint answers with a code at once.
    fileprivate func isSignedIn(_ cookie: String, _ site: RelyingSite) async throws -> Bool {
        let response = try await authorize(site.query(), cookie: cookie)
        return try Redirect(try #require(response.headers[.location])).parameters["code"] != nil
    }
}
