import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The caller of a Bearer request: a verified access token of a live session.
package struct AccessIdentity: Sendable {
    package let claims: AccessTokenClaims
    package let session: SessionRecord

    package var userId: String { claims.sub }
    package var deviceId: String? { claims.did }
    var isPrivileged: Bool { claims.scope.split(separator: " ").contains("privileged") }
}

/// Refreshes, lists and ends sessions, and authenticates the v1 API's Bearer requests (``SessionIssuer`` makes them).
package struct SessionService: Sendable {
    typealias Store = SessionStore & AppStore & DeviceStore

    let store: any Store
    let clock: any WallClock
    /// The account app (the web page), whose tokens alone count at the v1 API without a device proof.
    let accountClientId: String
    let auditor: Auditor
    let proofs: DeviceProofCheck
    let accessTokens: AccessTokenCheck
    let sessionIssuer: SessionIssuer

    /// Rotates a refresh token. A device session also needs a request token signed by its device key.
    /// - Parameters:
    ///   - deviceProof: the `TouchstoneDevice` authorization, if any; checked only once the refresh token names a
    ///     device session, so that a reused refresh token ends its session whatever proof comes with it.
    ///   - method, path: the request's, which the proof must name.
    package func refresh(refreshToken: String, deviceProof: String?, method: String, path: String, ip: String)
        async throws -> Session
    {
        let hash = SecretDigest.sha256(refreshToken)
        let found = try await store.refreshToken(hash: hash)
        return try await auditor.recording(
            .refresh, userId: found?.session.userId, deviceId: found?.session.deviceId,
            clientId: found?.session.clientId, ip: ip, success: false
        ) {
            // A refresh token of an OpenID Connect client is the client's, at /oauth2/token with its authentication.
            guard let (session, rotated) = found, session.revokedAt == nil, session.scope == nil else {
                throw ProblemError(.refreshTokenInvalid)
            }
            let now = clock.now()
            if rotated {
                try await store.revokeSession(id: session.id, reason: "refresh token reused", at: now)
                throw Self.reused
            }
            var device: DeviceRecord?
            if let deviceId = session.deviceId {
                device = try await proofs.verify(deviceProof, deviceId: deviceId, method: method, path: path)
            }
            let app = try await store.existingApp(session.clientId)
            if let device, !app.admitsAttestation(of: device) { throw DeviceAssertionPipeline.attestationRequired }
            let policy = app.policy
            if now.timeIntervalSince(session.lastActivityAt) > TimeInterval(policy.inactivityTimeoutSeconds)
                || now.timeIntervalSince(session.authTime) > TimeInterval(policy.sessionMaxLifetimeSeconds)
            {
                throw ProblemError(.reauthenticationRequired)
            }
            let next = sessionIssuer.refreshToken()
            guard try await store.rotateRefreshToken(hash: hash, newHash: next.hash, sessionId: session.id, at: now)
            else { throw Self.reused }
            var refreshed = session
            refreshed.lastActivityAt = now
            return try await sessionIssuer.session(refreshed, jkt: device?.deviceKeyThumbprint, refreshToken: next.token)
        }
    }

    /// Ends the caller's session.
    package func end(_ identity: AccessIdentity) async throws {
        try await store.revokeSession(id: identity.session.id, reason: "logout", at: clock.now())
    }

    /// `GET /v1/sessions`: the user's live sessions (not ended, within their app's maximum lifetime and inactivity
    /// timeout), oldest first.
    package func list(_ identity: AccessIdentity) async throws -> SessionList {
        try await Self.liveSessions(of: identity.userId, current: identity.session.id, store: store, at: clock.now())
    }

    /// The user's live sessions, oldest first, as `GET /v1/sessions` lists them; the admin API's list too.
    /// - Parameter current: the caller's own session, which the list marks.
    static func liveSessions(of userId: String, current: String?, store: any SessionStore & AppStore, at now: Date)
        async throws -> SessionList
    {
        // No app's inactivity timeout is longer than a day (admin app create refuses more).
        let candidates = try await store.unendedSessions(userId: userId, activeSince: now - Self.longestInactivity)
        var policies: [String: AppPolicy] = [:]
        var sessions: [SessionSummary] = []
        for session in candidates {
            if policies[session.clientId] == nil {
                policies[session.clientId] = try await store.app(clientId: session.clientId)?.policy
            }
            guard let policy = policies[session.clientId], Self.isLive(session, under: policy, at: now) else { continue }
            sessions.append(
                SessionSummary(
                    sessionId: session.id, clientId: session.clientId, deviceId: session.deviceId, amr: session.amr,
                    acr: session.acr, createdAt: session.createdAt, lastActivityAt: session.lastActivityAt,
                    ip: session.ip, current: session.id == current))
        }
        return SessionList(sessions: sessions)
    }

    /// `DELETE /v1/sessions/{id}`: ends one of the user's sessions: the caller's own with the session alone, any other
    /// with a privileged token (and a `sessions_ended` notice for the user's other devices).
    /// - Throws: 404 `not_found` for an unknown or ended session, or another user's; 403 `step_up_required`.
    package func end(_ sessionId: String, by identity: AccessIdentity, ip: String) async throws {
        try await auditor.recording(
            .sessionEnd, userId: identity.userId, deviceId: identity.deviceId, clientId: identity.claims.aud, ip: ip
        ) {
            let notFound = ProblemError(.notFound, detail: "No such session.")
            guard let session = try await store.session(id: sessionId), session.userId == identity.userId,
                session.revokedAt == nil
            else { throw notFound }
            let own = session.id == identity.session.id
            if !own { try StepUpService.requirePrivilege(identity) }
            let now = clock.now()
            var notice: NoticeDraft?
            if !own {
                var device: DeviceRecord?
                if let deviceId = session.deviceId { device = try await store.device(id: deviceId) }
                notice = SecurityNotices.draft(
                    .sessionsEnded, userId: identity.userId, device: device, actingDevice: identity.deviceId, ip: ip,
                    at: now)
            }
            guard
                try await store.endSession(
                    id: session.id, userId: identity.userId, reason: own ? "logout" : "ended by another session",
                    at: now, notice: notice)
            else { throw notFound }
        }
    }

    /// The longest inactivity timeout an app may have.
    static let longestInactivity: TimeInterval = 86_400

    /// Whether `session` may still be refreshed under its app's `policy`: not idle past the inactivity timeout, not
    /// past the maximum lifetime since its authentication.
    static func isLive(_ session: SessionRecord, under policy: AppPolicy, at now: Date) -> Bool {
        session.revokedAt == nil
            && now.timeIntervalSince(session.lastActivityAt) <= TimeInterval(policy.inactivityTimeoutSeconds)
            && now.timeIntervalSince(session.authTime) <= TimeInterval(policy.sessionMaxLifetimeSeconds)
    }

    /// The identity behind a Bearer token at the v1 API, or 401. A token is for its audience: relying services hold
    /// users' tokens, so a device session's token (`cnf.jkt`) counts only with a proof of this very request signed by
    /// that device key, and any other token only when it was issued to the account app (the web page); a token of
    /// an OpenID Connect client never.
    /// - Parameters:
    ///   - deviceProof: the `Touchstone-Device-Proof` header, if any.
    ///   - method, path: the request's, which the proof must name (`htm`, `htu` = issuer + path).
    /// - Throws: 401 `unauthorized`, `device_proof_required` or `invalid_device_proof`.
    package func authenticate(bearer token: String, deviceProof: String?, method: String, path: String) async throws
        -> AccessIdentity
    {
        // Tokens issued to OpenID Connect clients are for their userinfo only, never for the v1 API.
        guard let identity = try await accessTokens.liveIdentity(of: token), identity.session.scope == nil else {
            throw ProblemError.unauthorized
        }
        let claims = identity.claims
        if let jkt = claims.cnf?.jkt {
            guard let deviceId = claims.did else { throw ProblemError.unauthorized }
            let device = try await proofs.verify(deviceProof, deviceId: deviceId, method: method, path: path)
            guard device.deviceKeyThumbprint == jkt else { throw DeviceProofCheck.invalid }
        } else if claims.aud != accountClientId {
            throw ProblemError.unauthorized
        }
        return identity
    }

    private static let invalidDeviceProof = ProblemError(.invalidDeviceProof)

    private static let reused = ProblemError(.refreshTokenReused)

}
