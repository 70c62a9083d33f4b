import Crypto
import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// The relying site of the provider page's tests: the public client `shop` ("The Shop", publisher `shops`), whose
/// redirect URI is the server's own `/healthz` (it answers, so the browser lands there), and its PKCE pair.
struct ShopSite {
    let issuer: String
    var callback: String { issuer + "/healthz" }
    let verifier = Base64URL.encode((0..<48).map { _ in UInt8.random(in: 0...255) })
    var challenge: String { Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))) }

    /// Registers the site with `admin app create`.
    static func register(_ harness: BrowserHarness) async throws -> ShopSite {
        let site = ShopSite(issuer: harness.server.issuer)
        let created = try await harness.server.admin([
            "app", "create", "shop", "--publisher", "shops", "--name", "The Shop", "--redirect-uri", site.callback,
        ])
        try #require(created.status == 0, "\(created)")
        return site
    }

    /// The authorization request (`openid profile`, state `st-1`), with `extra` parameters.
    func authorize(_ extra: [String: String] = [:]) throws -> URL {
        var parameters = [
            "response_type": "code", "client_id": "shop", "redirect_uri": callback, "scope": "openid profile",
            "state": "st-1", "nonce": "n-1", "code_challenge": challenge, "code_challenge_method": "S256",
        ]
        parameters.merge(extra) { $1 }
        let query = parameters.map { "\($0.key)=\(PercentEncoding.unreserved($0.value))" }.sorted()
            .joined(separator: "&")
        return try #require(URL(string: issuer + "/oauth2/authorize?" + query))
    }

    /// The query parameters of the redirect that brings the browser back to the site.
    func landedParameters(_ page: BrowserPage) async throws -> [String: String] {
        try await page.waitUntil(
            "location.href.startsWith(\(BrowserPage.quoted(callback + "?")))", "the browser back at the site")
        let href = try #require(try await page.evaluate("location.href").string)
        let items = URLComponents(string: href)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// The site redeems `code` at the token endpoint.
    func redeem(_ code: String, _ harness: BrowserHarness) async throws -> WireResponse {
        let form = [
            "grant_type": "authorization_code", "code": code, "redirect_uri": callback, "code_verifier": verifier,
            "client_id": "shop",
        ].map { "\($0.key)=\(PercentEncoding.unreserved($0.value))" }.joined(separator: "&")
        return try await harness.client.send(
            "POST", "/oauth2/token", body: Data(form.utf8), headers: ["Content-Type": "application/x-www-form-urlencoded"])
    }
}
