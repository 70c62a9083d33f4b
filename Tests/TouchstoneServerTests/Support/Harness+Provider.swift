import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import _CryptoExtras

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneStorage

/// A relying website of the provider's tests: its registration, its PKCE pair and its view of the redirects.
struct RelyingSite {
    var clientId = "shop"
    var redirectURI = "https://shop.example/callback"
    var postLogoutURI = "https://shop.example/bye"
    var secret: String?
    let verifier = SecretDigest.randomToken(bytes: 48)
    var challenge: String { Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))) }

    /// The authorization query: a complete request, with `changes` applied (a `nil` value removes the parameter).
    func query(_ changes: [String: String?] = [:], scope: String = "openid profile offline_access") -> String {
        var parameters: [String: String?] = [
            "response_type": "code", "client_id": clientId, "redirect_uri": redirectURI, "scope": scope,
            "state": "st-123", "nonce": "n-456", "code_challenge": challenge, "code_challenge_method": "S256",
        ]
        parameters.merge(changes) { $1 }
        return parameters.compactMap { name, value in value.map { "\(name)=\(PercentEncoding.unreserved($0))" } }
            .sorted().joined(separator: "&")
    }
}

/// A redirect's target: its URI before the query, and the query's parameters.
struct Redirect {
    let base: String
    let parameters: [String: String]

    init(_ location: String) throws {
        let parts = location.split(separator: "?", maxSplits: 1).map(String.init)
        base = parts[0]
        parameters = Dictionary(
            (FormDecoding.pairs(Substring(parts.count > 1 ? parts[1] : "")) ?? []).map { ($0.name, $0.value) },
            uniquingKeysWith: { first, _ in first })
    }
}

extension Harness {
    /// Registers `site` as an app of publisher `shops` and an OIDC client; a confidential one gets its secret.
    @discardableResult
    func register(_ site: inout RelyingSite, confidential: Bool = false, idTokenAlgorithm: String = "RS256") async throws
        -> RelyingSite
    {
        try await saveApp(AppPolicy(clientId: site.clientId, publisher: "shops"))
        let (record, secret) = try OIDCClientRegistration(
            clientId: site.clientId, name: "The Shop", redirectURIs: [site.redirectURI],
            postLogoutRedirectURIs: [site.postLogoutURI], confidential: confidential, idTokenAlgorithm: idTokenAlgorithm
        ).record(random: SystemRandom())
        try await store.saveOIDCClient(record)
        site.secret = secret
        return site
    }

    /// Ana's account, the shop registered, and her first sign-in on the page for it: the code and the provider
    /// session's cookie.
    func signedInShop(idTokenAlgorithm: String = "RS256") async throws -> (site: RelyingSite, code: String, cookie: String) {
        try await createAccount()
        var site = RelyingSite()
        try await register(&site, idTokenAlgorithm: idTokenAlgorithm)
        let (redirect, cookie) = try await signIn(site.query())
        return (site, try #require(redirect.parameters["code"]), cookie)
    }

    /// A session of the web page (the account app) signed in with the password.
    func pageSession(_ username: String = "ana") async throws -> Session {
        let response = try await send(
            .post, "/v1/sessions/password",
            json: PasswordLoginRequest(clientId: AppRecord.demo.clientId, username: username, password: Harness.password))
        #expect(response.status == .created)
        return try decode(Session.self, response)
    }

    func authorize(_ query: String, cookie: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        return try await send(.get, "/oauth2/authorize?" + query, headers: headers)
    }

    /// The sign-in page's request id of an authorization that needs a sign-in.
    func signInRequestId(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(response.status == .seeOther, sourceLocation: sourceLocation)
        let redirect = try Redirect(try #require(response.headers[.location], sourceLocation: sourceLocation))
        #expect(redirect.base == "/", sourceLocation: sourceLocation)
        return try #require(redirect.parameters["sign-in"], sourceLocation: sourceLocation)
    }

    func completeSignIn(_ requestId: String, with session: Session) async throws -> TestResponse {
        try await send(.post, "/oauth2/sign-in/\(requestId)/complete", headers: bearer(session))
    }

    /// Signs in on the page for `query`: the code's redirect and the provider session cookie.
    func signIn(_ query: String, as username: String = "ana") async throws -> (redirect: Redirect, cookie: String) {
        let requestId = try signInRequestId(try await authorize(query))
        let response = try await completeSignIn(requestId, with: try await pageSession(username))
        #expect(response.status == .ok)
        let setCookie = try #require(response.headers[.setCookie])
        let cookie = String(setCookie.prefix { $0 != ";" })
        return (try Redirect(try decode(SignInRedirect.self, response).redirectTo), cookie)
    }

    /// A form POST to a provider endpoint, with HTTP Basic when `basic` is given.
    func postForm(_ path: String, _ form: [String: String], basic: (id: String, secret: String)? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let basic {
            headers[.authorization] = "Basic " + Data("\(basic.id):\(basic.secret)".utf8).base64EncodedString()
        }
        let body = form.map { "\($0.key)=\(PercentEncoding.unreserved($0.value))" }.sorted().joined(separator: "&")
        return try await send(.post, path, raw: body, headers: headers)
    }

    /// Redeems `code` as `site` (a public client unless it has a secret, then with Basic).
    func redeem(_ code: String, _ site: RelyingSite, verifier: String? = nil, redirectURI: String? = nil) async throws
        -> TestResponse
    {
        var form = [
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI ?? site.redirectURI,
            "code_verifier": verifier ?? site.verifier,
        ]
        if site.secret == nil { form["client_id"] = site.clientId }
        return try await postForm("/oauth2/token", form, basic: site.secret.map { (site.clientId, $0) })
    }

    func refresh(_ refreshToken: String, _ site: RelyingSite) async throws -> TestResponse {
        var form = ["grant_type": "refresh_token", "refresh_token": refreshToken]
        if site.secret == nil { form["client_id"] = site.clientId }
        return try await postForm("/oauth2/token", form, basic: site.secret.map { (site.clientId, $0) })
    }

    /// Where a redirect answer sends the browser.
    func location(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> Redirect {
        #expect(response.status == .seeOther, sourceLocation: sourceLocation)
        return try Redirect(try #require(response.headers[.location], sourceLocation: sourceLocation))
    }

    /// The code a redirect answer carries back to the client.
    func code(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let redirect = try location(response, sourceLocation: sourceLocation)
        return try #require(redirect.parameters["code"], "\(redirect.parameters)", sourceLocation: sourceLocation)
    }

    func oauthError(_ response: TestResponse) throws -> String {
        try decode(OAuthErrorResponse.self, response).error
    }

    func userInfo(_ accessToken: String) async throws -> TestResponse {
        try await send(.get, "/oauth2/userinfo", headers: [.authorization: "Bearer \(accessToken)"])
    }

    /// The claims of an ID token after checking its signature with the published key its header names.
    func verifiedIDToken(_ token: String) async throws -> (header: [String: Any], claims: [String: Any]) {
        let jwks = try decode(JWKSet.self, try await send(.get, "/.well-known/jwks.json"))
        let (header, claims) = try jwtParts(token)
        let key = try #require(jwks.keys.first { $0.kid == header["kid"] as? String })
        let parts = token.split(separator: ".").map(String.init)
        let input = Data((parts[0] + "." + parts[1]).utf8)
        let signature = try #require(Base64URL.decode(parts[2]))
        switch header["alg"] as? String {
        case "RS256":
            let modulus = try #require(key.n.flatMap(Base64URL.decode))
            let exponent = try #require(key.e.flatMap(Base64URL.decode))
            let publicKey = try _RSA.Signing.PublicKey(n: modulus, e: exponent)
            #expect(
                publicKey.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature), for: input, padding: .insecurePKCS1v1_5))
        case "ES256":
            let x = try #require(key.x.flatMap(Base64URL.decode))
            let y = try #require(key.y.flatMap(Base64URL.decode))
            let point = x + y
            let publicKey = try P256.Signing.PublicKey(rawRepresentation: point)
            #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: input))
        default:
            Issue.record("unexpected ID token algorithm \(header["alg"] ?? "none")")
        }
        #expect(key.alg == header["alg"] as? String)
        return (header, claims)
    }
}
