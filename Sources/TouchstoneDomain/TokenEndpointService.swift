import Crypto
import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The clients' side of the OpenID Connect provider: pushed requests, the token endpoint, revocation and userinfo.
package struct TokenEndpointService: Sendable {
    typealias Store = ProviderStore & SessionStore & AppStore & UserStore & CIBAStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    /// The provider's issuer.
    let issuer: String
    /// Seconds an access token lives.
    let accessTokenLifetime: Int
    let signer: TokenSigner
    let metrics: ServerMetrics
    let auditor: Auditor
    let clients: ProviderClients
    let accessTokens: AccessTokenCheck
    let sessionIssuer: SessionIssuer

    /// ID tokens last at most ten minutes.
    static let idTokenLifetime = 600

    /// Verifies DPoP proofs and spends their `jti`.
    private var dpopProofs: DPoPCheck { DPoPCheck(store: store, clock: clock) }

    /// `POST /oauth2/par` (RFC 9126): keeps a checked authorization request for 60 s, for this client only. A
    /// `dpop_jkt` or a DPoP proof (RFC 9449 §10) binds the code to that key.
    /// - Throws: `invalid_dpop_proof` for a proof that does not verify, or one of another key than `dpop_jkt`
    ///   (nothing is stored).
    package func push(_ parameters: OAuthParameters, credentials: ClientCredentials, dpop: DPoPRequest? = nil)
        async throws -> PushedAuthorizationResponse
    {
        let client = try await clients.authenticate(credentials)
        var request = try ProviderService.validatePushed(parameters, client: client)
        let named = try parameters.single("dpop_jkt")
        let proven = try await proofKey(dpop)
        if let named, let proven, named != proven {
            throw OAuthError(.invalidDPoPProof, "dpop_jkt and the DPoP proof name different keys")
        }
        request.dpopJKT = proven ?? named
        let now = clock.now()
        let lifetime = ProviderService.pushedRequestLifetime
        let kept = AuthorizationRequestRecord(
            id: random.token(), clientId: client.clientId, parameters: try request.stored(), pushed: true,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
        try await store.createAuthorizationRequest(kept)
        return PushedAuthorizationResponse(requestUri: ProviderService.requestURIPrefix + kept.id, expiresIn: lifetime)
    }

    /// `POST /oauth2/token`: the authorization code and refresh token grants. With a DPoP proof the access token is
    /// bound to its key (`cnf.jkt`, `token_type` DPoP), and so are a public or FAPI client's refresh tokens; a FAPI
    /// client must send a proof.
    /// - Parameters:
    ///   - dpop: the request's DPoP proof and what it must name.
    ///   - ip: the address of the request, kept with a session the code creates.
    /// - Throws: `invalid_dpop_proof` for a proof that fails or a FAPI client's missing one (before any grant is
    ///   looked at, so a refused proof spends no code), then the grant's refusals.
    package func token(
        _ parameters: OAuthParameters, credentials: ClientCredentials, dpop: DPoPRequest? = nil, ip: String? = nil
    ) async throws -> OAuthTokenResponse {
        let client = try await clients.authenticate(credentials)
        let jkt = try await proofKey(dpop)
        if client.fapi, jkt == nil {
            throw OAuthError(.invalidDPoPProof, "this client's tokens are DPoP-bound: send a DPoP proof")
        }
        switch try parameters.required("grant_type") {
        case "authorization_code":
            return try await metrics.countingLogin(.oidc) { try await redeem(parameters, client: client, jkt: jkt, ip: ip) }
        case "refresh_token": return try await refresh(parameters, client: client, jkt: jkt)
        case BackchannelAuthentication.grantType:
            return try await exchangeBackchannel(parameters, client: client, jkt: jkt, ip: ip)
        default:
            throw OAuthError(
                .unsupportedGrantType, "grant_type takes authorization_code, refresh_token or \(BackchannelAuthentication.grantType)")
        }
    }

    /// The thumbprint of the key of the request's DPoP proof, once verified; `nil` without a proof.
    private func proofKey(_ dpop: DPoPRequest?) async throws -> String? {
        guard let dpop, let proof = dpop.proof else { return nil }
        return try await dpopProofs.verify(proof, for: dpop)
    }

    private func redeem(_ parameters: OAuthParameters, client: OIDCClientRecord, jkt: String?, ip: String?) async throws
        -> OAuthTokenResponse
    {
        let code = try parameters.required("code")
        let redirectURI = try parameters.required("redirect_uri")
        let verifier = try parameters.required("code_verifier")
        let now = clock.now()
        let hash = SecretDigest.sha256(code)
        guard let record = try await store.authorizationCode(hash: hash) else {
            throw OAuthError.invalidGrant("the code is unknown")
        }
        if record.usedAt != nil, let firstUse = record.sessionId {
            try await store.revokeSession(id: firstUse, reason: "authorization code reused", at: now)
        }
        guard record.usedAt == nil else { throw OAuthError.invalidGrant("the code was used") }
        guard record.expiresAt > now else { throw OAuthError.invalidGrant("the code has expired") }
        guard record.clientId == client.clientId else { throw OAuthError.invalidGrant("the code is another client's") }
        guard record.redirectURI == redirectURI else {
            throw OAuthError.invalidGrant("redirect_uri is not the one of the authorization request")
        }
        guard PKCE.verifier(verifier, matches: record.codeChallenge) else {
            throw OAuthError.invalidGrant("code_verifier does not match code_challenge")
        }
        guard record.dpopJKT == nil || record.dpopJKT == jkt else {
            throw OAuthError.invalidGrant("the code is bound to another DPoP key")
        }
        guard let providerSession = try await store.providerSession(id: record.providerSessionId) else {
            throw OAuthError.invalidGrant("the sign-in behind the code has ended")
        }
        let session = SessionRecord(
            id: random.timeOrderedID(at: now), userId: record.userId, clientId: client.clientId, amr: providerSession.amr,
            acr: providerSession.acr, authTime: providerSession.authTime, lastActivityAt: now, createdAt: now,
            approvedBy: providerSession.approvedBy, scope: record.scope, providerSessionId: providerSession.id, ip: ip,
            dpopJKT: client.bindsRefreshTokens ? jkt : nil)
        let refreshToken = random.token()
        switch try await store.redeemAuthorizationCode(
            hash: hash, session: session, refreshTokenHash: SecretDigest.sha256(refreshToken), at: now)
        {
        case .redeemed:
            await auditor.record(.oidcToken, outcome: .ok, userId: session.userId, clientId: client.clientId)
            return try await tokens(
                for: session, client: client, nonce: record.nonce, refreshToken: refreshToken,
                grant: try AuthorizationGrant(approvedAt: record), jkt: jkt)
        case .reused: throw OAuthError.invalidGrant("the code was used")
        case .providerSessionEnded: throw OAuthError.invalidGrant("the sign-in behind the code has ended")
        }
    }

    private func refresh(_ parameters: OAuthParameters, client: OIDCClientRecord, jkt: String?) async throws
        -> OAuthTokenResponse
    {
        let refreshToken = try parameters.required("refresh_token")
        let now = clock.now()
        let hash = SecretDigest.sha256(refreshToken)
        guard let (session, rotated) = try await store.refreshToken(hash: hash), let scope = session.scope,
            session.clientId == client.clientId, scope.split(separator: " ").contains("offline_access")
        else { throw OAuthError.invalidGrant("the refresh token is not valid") }
        guard session.dpopJKT == nil || session.dpopJKT == jkt else {
            throw OAuthError.invalidGrant("the refresh token is bound to another DPoP key")
        }
        if let asked = try parameters.single("scope"), !Set(asked.split(separator: " ")).isSubset(of: scope.split(separator: " ")) {
            throw OAuthError(.invalidScope, "a refresh cannot add scopes")
        }
        guard session.revokedAt == nil else { throw OAuthError.invalidGrant("the session has ended") }
        if rotated {
            // A rotated token used again: someone else holds the family. End it, its access tokens included.
            try await store.revokeSession(id: session.id, reason: "refresh token reused", at: now)
            throw OAuthError.invalidGrant("the refresh token was already used; the session has been ended")
        }
        let policy = try await store.existingApp(client.clientId).policy
        guard now.timeIntervalSince(session.lastActivityAt) <= TimeInterval(policy.inactivityTimeoutSeconds),
            now.timeIntervalSince(session.authTime) <= TimeInterval(policy.sessionMaxLifetimeSeconds)
        else { throw OAuthError.invalidGrant("the session has expired; sign in again") }
        if client.fapi {
            // FAPI 2.0 SP §5.3.2.1: no rotation; the token stays valid, bound to its DPoP key, until the session ends.
            guard try await store.recordRefresh(sessionId: session.id, at: now) else {
                throw OAuthError.invalidGrant("the session has ended")
            }
            return try await tokens(for: session, client: client, nonce: nil, refreshToken: refreshToken, jkt: jkt)
        }
        let newToken = random.token()
        guard
            try await store.rotateRefreshToken(
                hash: hash, newHash: SecretDigest.sha256(newToken), sessionId: session.id, at: now)
        else { throw OAuthError.invalidGrant("the refresh token was already used; the session has been ended") }
        return try await tokens(for: session, client: client, nonce: nil, refreshToken: newToken, jkt: jkt)
    }

    /// An access token, an ID token and (with `offline_access`) the refresh token of `session`; the access token is
    /// bound to the DPoP key `jkt` when given. With `grant`, what a device approved: `txn` in both tokens,
    /// `authorization_details` in the access token and the answer.
    func tokens(
        for session: SessionRecord, client: OIDCClientRecord, nonce: String?, refreshToken: String,
        grant: AuthorizationGrant? = nil, jkt: String? = nil
    ) async throws -> OAuthTokenResponse {
        let scope = session.scope ?? "openid"
        let scopes = scope.split(separator: " ")
        let lifetime = accessTokenLifetime
        let accessToken = try await sessionIssuer.accessToken(
            for: session, jkt: jkt, scope: scope, lifetime: lifetime, grant: grant)
        let now = Int64(clock.now().timeIntervalSince1970)
        var username: String?
        if scopes.contains("profile") {
            username = try await store.user(id: session.userId)?.username
        }
        let claims = IDTokenClaims(
            iss: issuer, sub: session.userId, aud: client.clientId, iat: now,
            exp: now + Int64(min(lifetime, Self.idTokenLifetime)), auth_time: Int64(session.authTime.timeIntervalSince1970), nonce: nonce,
            acr: session.acr, amr: session.amr, at_hash: Self.leftHalfHash(accessToken),
            sid: session.providerSessionId ?? session.id, preferred_username: username, txn: grant?.txn)
        let algorithm = ServerKeyAlgorithm(rawValue: client.idTokenAlgorithm) ?? .rs256
        var response = OAuthTokenResponse(
            accessToken: accessToken, expiresIn: lifetime,
            idToken: try await signer.signIDToken(claims, algorithm: algorithm), scope: scope,
            refreshToken: scopes.contains("offline_access") ? refreshToken : nil,
            authorizationDetails: grant?.authorizationDetails)
        if jkt != nil { response.tokenType = "DPoP" }
        return response
    }

    /// base64url of the left half of SHA-256 of `token` (`at_hash`, for RS256 and ES256 alike).
    static func leftHalfHash(_ token: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(token.utf8))).prefix(16))
    }

    /// `POST /oauth2/revoke` (RFC 7009): ends the session of a refresh or access token of this client. Whatever the
    /// token, the answer is the same.
    package func revoke(_ parameters: OAuthParameters, credentials: ClientCredentials) async throws {
        let client = try await clients.authenticate(credentials)
        let token = try parameters.required("token")
        let now = clock.now()
        if let (session, _) = try await store.refreshToken(hash: SecretDigest.sha256(token)),
            session.clientId == client.clientId, session.scope != nil
        {
            try await store.revokeSession(id: session.id, reason: "revoked by the client", at: now)
        } else if let identity = try await accessTokens.liveIdentity(of: token),
            identity.claims.aud == client.clientId, identity.session.scope != nil
        {
            try await store.revokeSession(id: identity.session.id, reason: "revoked by the client", at: now)
        }
    }

    /// `GET|POST /oauth2/userinfo` with an access token the provider issued: as `Authorization: Bearer`, or, for a
    /// DPoP-bound token, as `Authorization: DPoP` with a proof of its key carrying `ath` (RFC 9449 §7.1).
    /// - Throws: `invalid_token` for a token that is not one, has expired or was revoked, a bound token without a proof
    ///   (or as Bearer) or with a proof of another key, an unbound token as DPoP; `invalid_dpop_proof` for a proof that
    ///   does not verify. Refusals of a DPoP-bound token or a DPoP request carry ``OAuthError/dpopChallenge``.
    package func userInfo(_ presentation: AccessTokenPresentation) async throws -> UserInfo {
        let usedDPoP = presentation.dpop != nil
        guard let identity = try await accessTokens.liveIdentity(of: presentation.token),
            let scope = identity.session.scope, scope.split(separator: " ").contains("openid")
        else { throw OAuthError(.invalidToken, "the access token is not valid", dpopChallenge: usedDPoP) }
        switch (identity.claims.cnf?.jkt, presentation.dpop) {
        case (nil, nil):
            break
        case (nil, _?):
            throw OAuthError(.invalidToken, "the access token is not DPoP-bound", dpopChallenge: true)
        case (let jkt?, let request):
            guard let request, let proof = request.proof else {
                throw OAuthError(.invalidToken, "a DPoP-bound token needs its DPoP proof", dpopChallenge: true)
            }
            let proven: String
            do {
                proven = try await dpopProofs.verify(proof, for: request, accessToken: presentation.token)
            } catch var error as OAuthError {
                error.dpopChallenge = true
                throw error
            }
            guard proven == jkt else {
                throw OAuthError(.invalidToken, "the DPoP proof is of another key", dpopChallenge: true)
            }
        }
        var username: String?
        if scope.split(separator: " ").contains("profile") {
            username = try await store.user(id: identity.userId)?.username
        }
        return UserInfo(sub: identity.userId, preferredUsername: username)
    }

}
