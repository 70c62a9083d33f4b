import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TouchstoneDomain
import TouchstoneProtocol

/// The OpenID Connect provider: discovery, the authorization endpoint with its sign-in page requests, PAR, the token
/// endpoint, userinfo, logout and revocation. OAuth refusals travel as OAuth says (``OAuthError/response()``,
/// redirects, pages); the sign-in page's own calls answer problems like the rest of the API.
struct ProviderController {
    let services: Services
    let cookie: ProviderCookie

    init(services: Services) {
        self.services = services
        cookie = ProviderCookie(issuer: services.environment.settings.issuer)
    }

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.openIDConfiguration, use: configuration)
        routes.on(.oauthAuthorize, use: authorize)
        routes.on(.oauthPushedRequest, use: push)
        routes.on(.oauthToken, use: token)
        routes.on(.oauthUserInfo, use: userInfo)
        routes.on(.oauthUserInfoPost, use: userInfo)
        routes.on(.oauthLogout, use: logout)
        routes.on(.oauthLogoutPost, use: logout)
        routes.on(.oauthLogoutConfirm, use: confirmLogout)
        routes.on(.oauthRevoke, use: revoke)
        routes.on(.oauthBackchannel, use: backchannelAuthorize)
        routes.on(.oauthSignInRequest, use: signInRequest)
        routes.on(.oauthSignInCancel, use: cancelSignIn)
        routes.group()
            .add(middleware: BearerAuthenticator(sessions: services.sessions))
            .on(.oauthSignInComplete, use: completeSignIn)
        return routes
    }

    @Sendable func configuration(_ request: Request, context: TouchstoneRequestContext) throws -> Response {
        var response = try Response.json(OpenIDConfiguration(issuer: services.environment.settings.issuer))
        response.headers[.cacheControl] = "max-age=300"
        return response
    }

    @Sendable func authorize(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        guard let parameters = FormDecoding.pairs(Substring(request.uri.query ?? "")) else {
            return ProviderPage.refused("The request's query is not well encoded.")
        }
        switch try await services.provider.authorize(OAuthParameters(parameters), sessionToken: cookie.value(in: request)) {
        case .refused(let reason):
            return ProviderPage.refused(reason)
        case .redirect(let location):
            return Self.seeOther(location)
        case .signIn(let requestId):
            return Self.seeOther("/?" + Self.signInParameter + "=" + requestId)
        }
    }

    /// The query parameter that hands the sign-in page its request.
    static let signInParameter = "sign-in"

    @Sendable func push(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await Self.answeringInOAuthTerms(context) {
            let form = try await Self.form(request, context: context)
            let pushed = try await services.tokenEndpoint.push(
                form, credentials: try clientCredentials(request, form: form),
                dpop: try dpopRequest(request, .oauthPushedRequest))
            return try Response.json(pushed, status: .created, noStore: true)
        }
    }

    @Sendable func token(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await Self.answeringInOAuthTerms(context) {
            let form = try await Self.form(request, context: context)
            let tokens = try await services.tokenEndpoint.token(
                form, credentials: try clientCredentials(request, form: form), dpop: try dpopRequest(request, .oauthToken),
                ip: context.clientAddress)
            return try Response.json(tokens, noStore: true)
        }
    }

    /// OpenID CIBA's backchannel authentication endpoint: errors as at the token endpoint.
    @Sendable func backchannelAuthorize(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await Self.answeringInOAuthTerms(context) {
            let form = try await Self.form(request, context: context)
            let answer = try await services.ciba.authorize(
                form, credentials: try clientCredentials(request, form: form), ip: context.clientAddress)
            return try Response.json(answer, noStore: true)
        }
    }

    /// `Authorization: Bearer` (RFC 6750 §2.1) or `Authorization: DPoP` with the request's proof (RFC 9449 §7.1): no
    /// token at all is a bare `Bearer` challenge (§3.1).
    @Sendable func userInfo(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let endpoint: Endpoint = request.method == .post ? .oauthUserInfoPost : .oauthUserInfo
        return try await Self.answeringInOAuthTerms(context) {
            let presentation: AccessTokenPresentation
            if let token = request.authorization(scheme: "Bearer") {
                presentation = AccessTokenPresentation(token: token, dpop: nil)
            } else if let token = request.authorization(scheme: "DPoP") {
                do {
                    presentation = AccessTokenPresentation(token: token, dpop: try dpopRequest(request, endpoint))
                } catch var error as OAuthError {
                    error.dpopChallenge = true
                    throw error
                }
            } else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer", .cacheControl: "no-store"])
            }
            return try Response.json(try await services.tokenEndpoint.userInfo(presentation), noStore: true)
        }
    }

    /// RP-initiated logout, `GET` (query) or `POST` (form): ends the browser's provider session only for an ID token
    /// hint of that session; otherwise the page asks the user.
    @Sendable func logout(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let parameters: OAuthParameters
        if request.method == .post {
            do {
                parameters = try await Self.form(request, context: context)
            } catch {
                return ProviderPage.refusedLogout("The sign-out request must be a well-encoded form.")
            }
        } else {
            guard let pairs = FormDecoding.pairs(Substring(request.uri.query ?? "")) else {
                return ProviderPage.refusedLogout("The sign-out request's query is not well encoded.")
            }
            parameters = OAuthParameters(pairs)
        }
        let sessionToken = cookie.value(in: request)
        return logoutPage(
            try await services.provider.logout(parameters, sessionToken: sessionToken), cookieSent: sessionToken != nil,
            confirming: false)
    }

    /// The form of the "Sign out of Touchstone?" page, with the token bound to the browser's provider session.
    @Sendable func confirmLogout(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let token: String?
        do {
            token = try await Self.form(request, context: context).single("token")
        } catch {
            return ProviderPage.refusedLogout("The sign-out confirmation must be a well-encoded form.")
        }
        let sessionToken = cookie.value(in: request)
        return logoutPage(
            try await services.provider.confirmLogout(token: token, sessionToken: sessionToken),
            cookieSent: sessionToken != nil, confirming: true)
    }

    /// The answer to a logout or its confirmation. The cookie is cleared once its session is over, and only when the
    /// browser sent it: a cross-site `POST` does not carry it (`SameSite=Lax`) and must not remove it either.
    /// - Parameter confirming: the request was a confirmation (then asking again means its token was not the one).
    private func logoutPage(_ outcome: ProviderService.LogoutOutcome, cookieSent: Bool, confirming: Bool) -> Response {
        var response: Response
        switch outcome {
        case .confirm(let token):
            return ProviderPage.confirmSignOut(token: token, again: confirming)
        case .ended(let location?):
            response = Self.seeOther(location)
        case .ended(nil):
            response = ProviderPage.signedOut
        case .signedOut:
            response = ProviderPage.notSignedIn
        }
        if cookieSent { response.headers[.setCookie] = cookie.clearing }
        return response
    }

    @Sendable func revoke(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await Self.answeringInOAuthTerms(context) {
            let form = try await Self.form(request, context: context)
            try await services.tokenEndpoint.revoke(form, credentials: try clientCredentials(request, form: form))
            return Response(status: .ok, headers: [.cacheControl: "no-store"])
        }
    }

    @Sendable func signInRequest(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let signIn = try await services.provider.signInRequest(try context.parameters.require("requestId"))
        return try Response.json(signIn, noStore: true)
    }

    /// The page's session (its Bearer token, never a cookie: no cross-site form can reach this) becomes the provider
    /// session, set as the cookie.
    @Sendable func completeSignIn(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let (location, session) = try await services.provider.completeSignIn(
            try context.parameters.require("requestId"), identity: try context.requireIdentity())
        var response = try Response.json(SignInRedirect(redirectTo: location), noStore: true)
        if let session { response.headers[.setCookie] = cookie.setting(session.sessionToken, lifetime: session.lifetime) }
        return response
    }

    @Sendable func cancelSignIn(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let location = try await services.provider.cancelSignIn(try context.parameters.require("requestId"))
        return try Response.json(SignInRedirect(redirectTo: location), noStore: true)
    }

    // MARK: Wire details

    /// Runs a client endpoint's `body`; every refusal answers in OAuth's terms (RFC 6749 §5.2): its own, and for
    /// anything unexpected (the database away) `temporarily_unavailable`, with the cause logged.
    private static func answeringInOAuthTerms(
        _ context: TouchstoneRequestContext, _ body: () async throws -> Response
    ) async throws -> Response {
        do {
            return try await body()
        } catch let error as OAuthError {
            return try error.response()
        } catch {
            context.logger.error("OAuth request failed", metadata: ["error": .string("\(error)")])
            return try OAuthError(.temporarilyUnavailable, "the server cannot answer now; try again").response()
        }
    }

    private static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// The form body of a client's request (`application/x-www-form-urlencoded`, at most 64 KiB).
    private static func form(_ request: Request, context: TouchstoneRequestContext) async throws -> OAuthParameters {
        guard let type = request.headers[.contentType]?.lowercased(),
            type.hasPrefix("application/x-www-form-urlencoded")
        else { throw OAuthError.invalidRequest("the body must be application/x-www-form-urlencoded") }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: context.maxUploadSize)
        } catch {
            throw OAuthError.invalidRequest("the body is larger than 64 KiB")
        }
        guard let pairs = FormDecoding.pairs(Substring(String(buffer: body))) else {
            throw OAuthError.invalidRequest("the body is not well encoded")
        }
        return OAuthParameters(pairs)
    }

    /// How the client identified itself (``credentials(_:form:)``), with the URLs a client assertion's `aud` may name:
    /// the token endpoint's and this endpoint's (ISSUER and the request's path, never the Host header). Every endpoint
    /// where clients authenticate takes its credentials from here.
    private func clientCredentials(_ request: Request, form: OAuthParameters) throws(OAuthError) -> ClientCredentials {
        let issuer = services.environment.settings.issuer
        var credentials = try Self.credentials(request, form: form)
        credentials.endpointURLs = [issuer + Endpoint.oauthToken.template, issuer + request.uri.path]
        return credentials
    }

    /// The request's DPoP proof (at most one `DPoP` header, RFC 9449 §4.3) and what it must name: the method and ISSUER
    /// with `endpoint`'s path.
    private func dpopRequest(_ request: Request, _ endpoint: Endpoint) throws(OAuthError) -> DPoPRequest {
        let proofs = request.headers[values: Self.dpopHeader]
        guard proofs.count <= 1 else { throw OAuthError(.invalidDPoPProof, "send one DPoP header") }
        return DPoPRequest(
            proof: proofs.first, method: request.method.rawValue,
            url: services.environment.settings.issuer + endpoint.template)
    }

    /// `DPoP` (RFC 9449 §4.1).
    private static let dpopHeader = HTTPField.Name("DPoP")!

    /// The client assertion type of `private_key_jwt` (RFC 7523 §2.2).
    private static let jwtBearerAssertion = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// How the client identified itself: HTTP Basic (its id and secret form-encoded, RFC 6749 §2.3.1), `client_id` and
    /// `client_secret` in the form, or a client assertion (`private_key_jwt`, RFC 7523 §2.2); never two of them.
    private static func credentials(_ request: Request, form: OAuthParameters) throws(OAuthError) -> ClientCredentials {
        let formId = try form.single("client_id")
        let formSecret = try form.single("client_secret")
        let assertionType = try form.single("client_assertion_type")
        let assertion = try form.single("client_assertion")
        if assertionType != nil || assertion != nil {
            guard formSecret == nil, request.authorization(scheme: "Basic") == nil else {
                throw .invalidRequest("use one client authentication method, not two")
            }
            guard assertionType == jwtBearerAssertion, let assertion else {
                throw OAuthError(.invalidClient, "client_assertion_type must be \(jwtBearerAssertion), with client_assertion")
            }
            return ClientCredentials(clientId: formId, secret: nil, method: .privateKeyJWT(assertion: assertion))
        }
        guard let basic = request.authorization(scheme: "Basic") else {
            return ClientCredentials(clientId: formId, secret: formSecret, method: formSecret == nil ? .none : .post)
        }
        guard formSecret == nil else { throw .invalidRequest("use one client authentication method, not two") }
        guard let decoded = Data(base64Encoded: basic).flatMap({ String(data: $0, encoding: .utf8) }),
            let colon = decoded.firstIndex(of: ":"),
            let id = FormDecoding.decode(decoded[..<colon]),
            let secret = FormDecoding.decode(decoded[decoded.index(after: colon)...])
        else { throw OAuthError(.invalidClient, "the Basic credentials are malformed", usedBasic: true) }
        guard formId == nil || formId == id else {
            throw OAuthError(.invalidClient, "client_id is not the authenticated client", usedBasic: true)
        }
        return ClientCredentials(clientId: id, secret: secret, method: .basic)
    }
}
