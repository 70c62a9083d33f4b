import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The browser's side of the OpenID Connect provider: the authorization endpoint, the sign-in page's requests and
/// RP-initiated logout and its confirmation. The provider session is the one cookie; this service sees only its value.
package struct ProviderService: Sendable {
    typealias Store = ProviderStore & AppStore & WebLoginStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    /// The provider's issuer.
    let issuer: String
    /// The account app, whose sessions the sign-in page makes.
    let accountClientId: String
    let signer: TokenSigner
    let auditor: Auditor
    let clients: ProviderClients

    /// How long a code lives.
    static let codeLifetime: TimeInterval = 60
    /// How long a pushed request (`request_uri`) lives.
    package static let pushedRequestLifetime = 60
    /// How long the user has to sign in on the page.
    static let signInLifetime: TimeInterval = 600
    /// The longest a provider session lasts after its sign-in, whatever an app's policy says.
    static let maximumSessionLifetime: TimeInterval = 12 * 3_600
    /// A sign-in request that is unknown, finished or expired.
    static let requestGone = ProblemError(.notFound, detail: "This sign-in request is finished or has expired.")
    /// The `request_uri` prefix of pushed requests (RFC 9126 §2.2).
    package static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"


    // MARK: The authorization endpoint

    /// `GET /oauth2/authorize`: a code at once for a provider session that is enough, the sign-in page otherwise.
    /// - Parameter sessionToken: the provider session cookie's value, if the browser sent one.
    package func authorize(_ parameters: OAuthParameters, sessionToken: String?) async throws -> AuthorizationOutcome {
        let now = clock.now()
        let request: AuthorizationParameters
        let client: OIDCClientRecord
        switch try await resolve(parameters, at: now) {
        case .refused(let why): return .refused(why)
        case .failed(let error, let redirectURI, let state):
            return .redirect(AuthorizationResponse.failure(error, redirectURI: redirectURI, state: state, issuer: issuer))
        case .resolved(let resolved, let resolvedClient):
            (request, client) = (resolved, resolvedClient)
        }
        let session = try await liveSession(sessionToken, for: client, at: now)
        // Payment details are granted only by a phone's approval on the page, whatever session the browser has.
        if let session, request.authorizationDetails == nil, !request.prompts.contains(.login),
            request.isSatisfied(byACR: session.acr, authTime: session.authTime, now: now)
        {
            let code = try await issueCode(for: request, session: session, newSession: nil, spending: nil, at: now)
            return .redirect(AuthorizationResponse.success(code: code, to: request, issuer: issuer))
        }
        if request.prompts.contains(.none) {
            let error =
                request.authorizationDetails == nil
                ? OAuthError(.loginRequired, "the user must sign in")
                : OAuthError(.interactionRequired, "payment details need the user's approval on the sign-in page")
            return .redirect(
                AuthorizationResponse.failure(error, redirectURI: request.redirectURI, state: request.state, issuer: issuer))
        }
        let kept = AuthorizationRequestRecord(
            id: random.token(), clientId: client.clientId, parameters: try request.stored(),
            pushed: false, createdAt: now, expiresAt: now.addingTimeInterval(Self.signInLifetime))
        try await store.createAuthorizationRequest(kept)
        return .signIn(requestId: kept.id)
    }

    private enum Resolution {
        case refused(String)
        case failed(OAuthError, redirectURI: String, state: String?)
        case resolved(AuthorizationParameters, OIDCClientRecord)
    }

    /// The request's client and parameters, from the query or from a pushed request. Until the client and its
    /// redirect URI are known to be right, nothing is redirected.
    private func resolve(_ parameters: OAuthParameters, at now: Date) async throws -> Resolution {
        guard let clientId = try? parameters.single("client_id") else {
            return .refused("The request must name its client once (client_id).")
        }
        guard let client = try await clients.client(clientId) else { return .refused("No client has this client_id.") }
        if parameters.names.contains("request_uri") {
            guard parameters.names == ["client_id", "request_uri"], let requestURI = try? parameters.single("request_uri"),
                requestURI.hasPrefix(Self.requestURIPrefix),
                let pushed = try await store.takeAuthorizationRequest(
                    id: String(requestURI.dropFirst(Self.requestURIPrefix.count)), clientId: clientId, pushed: true,
                    at: now)
            else { return .refused("The request_uri is unknown, used, expired or another client's.") }
            return .resolved(try AuthorizationParameters(stored: pushed.parameters), client)
        }
        guard let redirectURI = try? parameters.single("redirect_uri") else {
            return .refused("The request must carry its redirect_uri once.")
        }
        guard client.redirectURIs.contains(redirectURI) else {
            return .refused("This redirect_uri is not registered for the client.")
        }
        if client.fapi {
            let error = OAuthError.invalidRequest("this client's authorization requests must be pushed (PAR)")
            return .failed(error, redirectURI: redirectURI, state: try? parameters.single("state"))
        }
        do {
            return .resolved(try AuthorizationParameters(parameters, clientId: clientId, redirectURI: redirectURI), client)
        } catch {
            return .failed(error, redirectURI: redirectURI, state: try? parameters.single("state"))
        }
    }

    /// Validates a request for the client `client` as PAR keeps it.
    /// - Throws: the ``OAuthError`` of the first parameter at fault (`invalid_request` for a redirect URI that is not
    ///   the client's).
    static func validatePushed(_ parameters: OAuthParameters, client: OIDCClientRecord) throws(OAuthError) -> AuthorizationParameters {
        if try parameters.single("request_uri") != nil { throw .invalidRequest("request_uri cannot be pushed") }
        if let clientId = try parameters.single("client_id"), clientId != client.clientId {
            throw .invalidRequest("client_id is not the authenticated client")
        }
        let redirectURI = try parameters.required("redirect_uri")
        guard client.redirectURIs.contains(redirectURI) else {
            throw .invalidRequest("this redirect_uri is not registered for the client")
        }
        return try AuthorizationParameters(parameters, clientId: client.clientId, redirectURI: redirectURI)
    }

    // MARK: The sign-in page

    /// `GET /oauth2/sign-in/{requestId}`: what the page shows ("Sign in to …").
    /// - Throws: `not_found` for a request that is unknown, finished or expired.
    package func signInRequest(_ requestId: String) async throws -> SignInRequest {
        let (kept, request, client) = try await pendingRequest(requestId)
        return SignInRequest(
            requestId: kept.id, clientId: client.clientId, clientName: client.name, requiredAcr: request.requiredACR,
            loginHint: request.loginHint, expiresAt: kept.expiresAt,
            authorizationDetails: try request.payment()?.details.value)
    }

    /// `POST /oauth2/sign-in/{requestId}/complete`: the page signed the user in (its own session, of the account app,
    /// made after the request): the browser gets the provider session and goes back to the client with a code. A
    /// request with payment details is granted only by the phone approval of a web login started for it
    /// (``WebLoginService``), whose `txn` its tokens then carry; any other sign-in ends it with `access_denied`.
    /// - Returns: where to send the browser, and the new provider session's cookie value and lifetime (`nil` when the
    ///   request was refused).
    /// - Throws: `not_found` for an unknown, finished or expired request; `reauthentication_required` for a session
    ///   older than the request or not the page's; `insufficient_authentication` when the client asks for more
    ///   (`acr_values=aal2` and a password).
    package func completeSignIn(_ requestId: String, identity: AccessIdentity) async throws
        -> (redirect: String, cookie: (sessionToken: String, lifetime: Int)?)
    {
        let now = clock.now()
        let (kept, request, client) = try await pendingRequest(requestId)
        let signIn = identity.session
        guard signIn.clientId == accountClientId, signIn.deviceId == nil, signIn.scope == nil,
            signIn.authTime >= kept.createdAt
        else {
            throw ProblemError(.reauthenticationRequired, detail: "Sign in on this page for this request.")
        }
        // A sign-in made for this request is fresh whatever max_age says; its level must still be enough.
        guard AuthorizationParameters.satisfies(acr: signIn.acr, acrValues: request.acrValues) else {
            throw ProblemError(
                .insufficientAuthentication, detail: "\(client.name) asks for a passkey or an approval on your phone.")
        }
        var approved: (details: String, txn: String)?
        if let details = request.authorizationDetails {
            guard let approval = try await store.webLoginApproval(signInRequestId: kept.id, sessionId: signIn.id),
                let txn = approval.txn
            else { return (try await refuse(requestId, because: "payment details need an approval on the phone"), nil) }
            approved = (details, txn)
        }
        let policy = try await store.existingApp(client.clientId).policy
        let lifetime = min(Self.maximumSessionLifetime, TimeInterval(policy.sessionMaxLifetimeSeconds))
        let session = ProviderSessionRecord(
            id: random.recordID(), userId: signIn.userId, amr: Self.providerAMR(of: signIn), acr: signIn.acr,
            authTime: signIn.authTime, createdAt: now, expiresAt: signIn.authTime.addingTimeInterval(lifetime),
            approvedBy: signIn.approvedBy)
        let token = random.token()
        let code = try await issueCode(
            for: request, session: session, newSession: (SecretDigest.sha256(token), signIn.id), spending: kept.id,
            approved: approved, at: now)
        return (
            AuthorizationResponse.success(code: code, to: request, issuer: issuer),
            (token, Int(session.expiresAt.timeIntervalSince(now)))
        )
    }

    /// `POST /oauth2/sign-in/{requestId}/cancel`: the user said no; the client hears `access_denied`.
    /// - Throws: `not_found` for an unknown, finished or expired request.
    package func cancelSignIn(_ requestId: String) async throws -> String {
        try await refuse(requestId, because: "the user cancelled the sign-in")
    }

    /// Spends the sign-in request: the client hears `access_denied`.
    /// - Returns: the redirect to the client.
    /// - Throws: `not_found` for an unknown, finished or expired request.
    private func refuse(_ requestId: String, because reason: String) async throws -> String {
        guard
            let kept = try await store.takeAuthorizationRequest(
                id: requestId, clientId: nil, pushed: false, at: clock.now())
        else { throw Self.requestGone }
        let request = try AuthorizationParameters(stored: kept.parameters)
        return AuthorizationResponse.failure(
            OAuthError(.accessDenied, reason), redirectURI: request.redirectURI, state: request.state, issuer: issuer)
    }

    private func pendingRequest(_ requestId: String) async throws
        -> (AuthorizationRequestRecord, AuthorizationParameters, OIDCClientRecord)
    {
        guard let kept = try await store.authorizationRequest(id: requestId, at: clock.now()),
            !kept.pushed, let client = try await clients.client(kept.clientId)
        else { throw Self.requestGone }
        return (kept, try AuthorizationParameters(stored: kept.parameters), client)
    }

    // MARK: Logout

    /// What RP-initiated logout, or the user's confirmation of it, answers.
    package enum LogoutOutcome: Sendable, Equatable {
        /// The browser's provider session ended, with every session issued through it: to `redirect` (a post-logout
        /// URI registered for the hint's client, with `state`), or the signed-out page when it is `nil`.
        case ended(redirect: String?)
        /// The browser has no live provider session (and nothing ended): the page says it is signed out.
        case signedOut
        /// A live provider session that this request cannot end by itself: the page asks the user, and its form sends
        /// `token` (``LogoutConfirmation``) to `POST /oauth2/logout/confirm`.
        case confirm(token: String)
    }

    /// `GET` or `POST /oauth2/logout` (RP-Initiated Logout 1.0): acts on the browser's provider session only. An
    /// `id_token_hint` that counts (``countingHint(_:)``) and names that session ends it, with every session issued
    /// through it, and goes back only to a post-logout URI registered for the hint's client. Anything else ends
    /// nothing: any page can send a browser here, so the user is asked first. A hint alone never ends anything.
    /// - Parameter sessionToken: the provider session cookie's value, if the browser sent one.
    package func logout(_ parameters: OAuthParameters, sessionToken: String?) async throws -> LogoutOutcome {
        let now = clock.now()
        guard let sessionToken,
            let session = try await store.providerSession(tokenHash: SecretDigest.sha256(sessionToken))
        else { return .signedOut }
        if let hint = try await countingHint(parameters), hint.sid == session.id, hint.sub == session.userId {
            try await end(session, clientId: hint.aud, at: now)
            guard let uri = try? parameters.single("post_logout_redirect_uri"),
                let client = try await clients.client(hint.aud), client.postLogoutRedirectURIs.contains(uri)
            else { return .ended(redirect: nil) }
            let state = try? parameters.single("state")
            return .ended(redirect: state.map { AuthorizationResponse.redirect(to: uri, [("state", $0)]) } ?? uri)
        }
        guard session.endedAt == nil, session.expiresAt > now else { return .signedOut }
        return .confirm(token: LogoutConfirmation.token(forSession: sessionToken))
    }

    /// `POST /oauth2/logout/confirm`: the user confirmed on the page. With that session's token
    /// (``LogoutConfirmation``), the browser's provider session ends with every session issued through it; with any
    /// other, nothing ends and the page asks again.
    /// - Parameter sessionToken: the provider session cookie's value, if the browser sent one.
    package func confirmLogout(token: String?, sessionToken: String?) async throws -> LogoutOutcome {
        let now = clock.now()
        guard let sessionToken,
            let session = try await store.providerSession(tokenHash: SecretDigest.sha256(sessionToken))
        else { return .signedOut }
        if LogoutConfirmation.confirms(token, session: sessionToken) {
            try await end(session, clientId: nil, at: now)
            return .ended(redirect: nil)
        }
        guard session.endedAt == nil, session.expiresAt > now else { return .signedOut }
        return .confirm(token: LogoutConfirmation.token(forSession: sessionToken))
    }

    /// The claims of the request's `id_token_hint` when it counts: signed by this provider with a key it publishes,
    /// `iss` ISSUER, expired or not (RP-Initiated Logout 1.0 §2), and of the client a `client_id` sent beside it names.
    /// A repeated `id_token_hint` or `client_id` does not count.
    private func countingHint(_ parameters: OAuthParameters) async throws -> IDTokenClaims? {
        let hint: String?
        let clientId: String?
        do {
            hint = try parameters.single("id_token_hint")
            clientId = try parameters.single("client_id")
        } catch {
            return nil
        }
        guard let hint, let claims = try await signer.verifyIDTokenSignature(hint),
            clientId == nil || clientId == claims.aud
        else { return nil }
        return claims
    }

    /// Ends `session` and every session issued through it (again, harmlessly, when it has ended already).
    private func end(_ session: ProviderSessionRecord, clientId: String?, at now: Date) async throws {
        try await store.endProviderSession(id: session.id, at: now)
        if session.endedAt == nil {
            await auditor.record(.oidcLogout, outcome: .ok, userId: session.userId, clientId: clientId)
        }
    }

    // MARK: Sessions and codes

    /// The provider session of `token` while it may serve `client`: not ended, within 12 hours and the client app's
    /// maximum session lifetime.
    private func liveSession(_ token: String?, for client: OIDCClientRecord, at now: Date) async throws
        -> ProviderSessionRecord?
    {
        guard let token, let session = try await store.providerSession(tokenHash: SecretDigest.sha256(token)),
            session.endedAt == nil, session.expiresAt > now
        else { return nil }
        let policy = try await store.existingApp(client.clientId).policy
        guard now.timeIntervalSince(session.authTime) <= TimeInterval(policy.sessionMaxLifetimeSeconds) else { return nil }
        return session
    }

    /// Stores a new code for `request` from `session` (and the session itself when `newSession` holds its cookie's
    /// hash and the page's session it was made from), spending the kept request `spending`.
    /// - Returns: the code.
    /// - Throws: `not_found` when the kept request was spent meanwhile or the page's session ended (nothing is stored
    ///   then).
    private func issueCode(
        for request: AuthorizationParameters, session: ProviderSessionRecord,
        newSession: (tokenHash: String, signIn: String)?, spending requestId: String?,
        approved: (details: String, txn: String)? = nil, at now: Date
    ) async throws -> String {
        let code = random.token()
        let record = AuthorizationCodeRecord(
            hash: SecretDigest.sha256(code), clientId: request.clientId, redirectURI: request.redirectURI,
            codeChallenge: request.codeChallenge, nonce: request.nonce, scope: request.scope, userId: session.userId,
            providerSessionId: session.id, createdAt: now, expiresAt: now.addingTimeInterval(Self.codeLifetime),
            dpopJKT: request.dpopJKT, authorizationDetails: approved?.details, txn: approved?.txn)
        guard
            try await store.issueAuthorizationCode(
                record, spending: requestId, newSession: newSession.map { (session, $0.tokenHash, $0.signIn) }, at: now)
        else { throw Self.requestGone }
        await auditor.record(
            .oidcAuthorize, outcome: .ok, userId: session.userId, clientId: request.clientId)
        return code
    }

    /// The `amr` of ID tokens (RFC 8176) for a sign-in on the page: a password, a passkey, or a phone's approval
    /// with its fingerprint or PIN.
    static func providerAMR(of session: SessionRecord) -> [AuthenticationMethod] {
        if session.approvedBy != nil {
            return session.amr.contains(.pin)
                ? [.hardwareKey, .pin, .multipleFactors] : [.hardwareKey, .fingerprint, .multipleFactors]
        }
        if session.amr.contains(.passkey) { return [.hardwareKey, .multipleFactors] }
        return [.password]
    }

}
