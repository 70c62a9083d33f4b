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

/// A session ready to be stored, with the tokens to return once it is.
package struct PreparedSession: Sendable {
    package let record: SessionRecord
    package let refreshTokenHash: String
    package let wire: Session
}

/// Issues, refreshes and ends sessions.
package struct SessionService: Sendable {
    package let environment: ServiceEnvironment

    /// Builds a new session and signs its first access token; the caller stores it.
    /// - Parameters:
    ///   - approvedBy: the device whose approval makes this session (a web login); it ends with that device.
    ///   - ip: the address of the request that creates it, as the user's list of sessions shows it.
    package func prepare(
        userId: String, device: DeviceRecord?, clientId: String, amr: [String], acr: String,
        approvedBy: String? = nil, ip: String?
    ) async throws -> PreparedSession {
        let now = environment.clock.now()
        let record = SessionRecord(
            id: RecordID.timeOrdered(at: now), userId: userId, deviceId: device?.id, clientId: clientId,
            amr: amr, acr: acr, authTime: now, lastActivityAt: now, createdAt: now, revokedAt: nil, approvedBy: approvedBy,
            ip: ip)
        let refreshToken = SecretDigest.randomToken()
        let wire = try await tokens(for: record, jkt: device?.deviceKeyThumbprint, refreshToken: refreshToken)
        return PreparedSession(record: record, refreshTokenHash: SecretDigest.sha256(refreshToken), wire: wire)
    }

    /// Rotates a refresh token. A device session also needs a request token signed by its device key.
    /// - Parameters:
    ///   - deviceProof: the `TouchstoneDevice` authorization, if any; checked only once the refresh token names a
    ///     device session, so that a reused refresh token ends its session whatever proof comes with it.
    ///   - method, path: the request's, which the proof must name.
    package func refresh(refreshToken: String, deviceProof: String?, method: String, path: String, ip: String)
        async throws -> Session
    {
        let hash = SecretDigest.sha256(refreshToken)
        let found = try await environment.store.refreshToken(hash: hash)
        return try await environment.auditor.recording(
            "refresh", userId: found?.session.userId, deviceId: found?.session.deviceId,
            clientId: found?.session.clientId, ip: ip, success: false
        ) {
            // A refresh token of an OpenID Connect client is the client's, at /oauth2/token with its authentication.
            guard let (session, rotated) = found, session.revokedAt == nil, session.scope == nil else {
                throw ProblemError(.refreshTokenInvalid)
            }
            let now = environment.clock.now()
            if rotated {
                try await environment.store.revokeSession(id: session.id, reason: "refresh token reused", at: now)
                throw Self.reused
            }
            var device: DeviceRecord?
            if let deviceId = session.deviceId {
                device = try await verifyDeviceProof(deviceProof, deviceId: deviceId, method: method, path: path)
            }
            let app = try await environment.app(session.clientId)
            if let device, !app.admitsAttestation(of: device) { throw DeviceAssertionPipeline.attestationRequired }
            let policy = app.policy
            if now.timeIntervalSince(session.lastActivityAt) > TimeInterval(policy.inactivityTimeoutSeconds)
                || now.timeIntervalSince(session.authTime) > TimeInterval(policy.sessionMaxLifetimeSeconds)
            {
                throw ProblemError(.reauthenticationRequired)
            }
            let newToken = SecretDigest.randomToken()
            guard
                try await environment.store.rotateRefreshToken(
                    hash: hash, newHash: SecretDigest.sha256(newToken), sessionId: session.id, at: now)
            else { throw Self.reused }
            var refreshed = session
            refreshed.lastActivityAt = now
            return try await tokens(for: refreshed, jkt: device?.deviceKeyThumbprint, refreshToken: newToken)
        }
    }

    /// Verifies a device's request token (`touchstone-request+jwt`) of a `method` call to `path`.
    /// - Returns: the device, active.
    func verifyDeviceProof(_ authorization: String?, deviceId: String, method: String, path: String)
        async throws -> DeviceRecord
    {
        let invalid = Self.invalidDeviceProof
        guard let authorization else {
            throw ProblemError(.deviceProofRequired)
        }
        let token = try DeviceTokenGate.parse(authorization, invalid: invalid)
        guard token.issuer == deviceId, let device = try await environment.store.device(id: deviceId),
            device.isActive, token.kid == device.deviceKeyThumbprint
        else { throw invalid }
        let key = try environment.deviceKeys.key(for: device.deviceKey)
        let gate = DeviceTokenGate(environment: environment)
        let verified = try gate.verify(token, key: key, as: RequestClaims.self, issuer: deviceId, invalid: invalid)
        guard verified.claims.verify(method: method, url: environment.settings.issuer + path) else { throw invalid }
        try await gate.spend(verified, replayed: invalid)
        return device
    }

    /// Ends the caller's session.
    package func end(_ identity: AccessIdentity) async throws {
        try await environment.store.revokeSession(id: identity.session.id, reason: "logout", at: environment.clock.now())
    }

    /// `GET /v1/sessions`: the user's live sessions (not ended, within their app's maximum lifetime and inactivity
    /// timeout), oldest first.
    package func list(_ identity: AccessIdentity) async throws -> SessionList {
        let now = environment.clock.now()
        // No app's inactivity timeout is longer than a day (admin app create refuses more).
        let candidates = try await environment.store.unendedSessions(
            userId: identity.userId, activeSince: now - Self.longestInactivity)
        var policies: [String: AppPolicy] = [:]
        var sessions: [SessionSummary] = []
        for session in candidates {
            if policies[session.clientId] == nil {
                policies[session.clientId] = try await environment.store.app(clientId: session.clientId)?.policy
            }
            guard let policy = policies[session.clientId], Self.isLive(session, under: policy, at: now) else { continue }
            sessions.append(
                SessionSummary(
                    sessionId: session.id, clientId: session.clientId, deviceId: session.deviceId, amr: session.amr,
                    acr: session.acr, createdAt: session.createdAt, lastActivityAt: session.lastActivityAt,
                    ip: session.ip, current: session.id == identity.session.id))
        }
        return SessionList(sessions: sessions)
    }

    /// `DELETE /v1/sessions/{id}`: ends one of the user's sessions: the caller's own with the session alone, any other
    /// with a privileged token (and a `sessions_ended` notice for the user's other devices).
    /// - Throws: 404 `not_found` for an unknown or ended session, or another user's; 403 `step_up_required`.
    package func end(_ sessionId: String, by identity: AccessIdentity, ip: String) async throws {
        try await environment.auditor.recording(
            "session.end", userId: identity.userId, deviceId: identity.deviceId, clientId: identity.claims.aud, ip: ip
        ) {
            let notFound = ProblemError(.notFound, detail: "No such session.")
            guard let session = try await environment.store.session(id: sessionId), session.userId == identity.userId,
                session.revokedAt == nil
            else { throw notFound }
            let own = session.id == identity.session.id
            if !own { try StepUpService.requirePrivilege(identity) }
            let now = environment.clock.now()
            var notice: NoticeDraft?
            if !own {
                var device: DeviceRecord?
                if let deviceId = session.deviceId { device = try await environment.store.device(id: deviceId) }
                notice = SecurityNotices.draft(
                    .sessionsEnded, userId: identity.userId, device: device, actingDevice: identity.deviceId, ip: ip,
                    at: now)
            }
            guard
                try await environment.store.endSession(
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
        guard let identity = try await liveIdentity(of: token), identity.session.scope == nil else {
            throw ProblemError.unauthorized
        }
        let claims = identity.claims
        if let jkt = claims.cnf?.jkt {
            guard let deviceId = claims.did else { throw ProblemError.unauthorized }
            let device = try await verifyDeviceProof(deviceProof, deviceId: deviceId, method: method, path: path)
            guard device.deviceKeyThumbprint == jkt else { throw Self.invalidDeviceProof }
        } else if claims.aud != environment.settings.accountClientId {
            throw ProblemError.unauthorized
        }
        return identity
    }

    /// The verified access token of a live session, whoever presents it (for introspection); `nil` otherwise.
    func liveIdentity(of token: String) async throws -> AccessIdentity? {
        guard let claims = try await environment.signer.verify(token),
            let session = try await environment.store.session(id: claims.sid), session.revokedAt == nil,
            session.userId == claims.sub, session.deviceId == claims.did
        else { return nil }
        return AccessIdentity(claims: claims, session: session)
    }

    private func tokens(for session: SessionRecord, jkt: String?, refreshToken: String) async throws -> Session {
        let lifetime = environment.settings.accessTokenLifetime
        return Session(
            accessToken: try await accessToken(for: session, jkt: jkt, scope: "session", lifetime: lifetime),
            refreshToken: refreshToken, expiresIn: lifetime, amr: session.amr, acr: session.acr,
            userId: session.userId, deviceId: session.deviceId, scope: "session")
    }

    /// Signs an access token of `session`.
    package func accessToken(for session: SessionRecord, jkt: String?, scope: String, lifetime: Int) async throws -> String {
        let now = Int64(environment.clock.now().timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: environment.settings.issuer, aud: session.clientId, sub: session.userId, sid: session.id,
            did: session.deviceId, amr: session.amr, acr: session.acr,
            auth_time: Int64(session.authTime.timeIntervalSince1970), scope: scope,
            cnf: jkt.map { AccessTokenClaims.Confirmation(jkt: $0) }, iat: now, exp: now + Int64(lifetime),
            jti: RecordID.random())
        return try await environment.signer.sign(claims)
    }

    private static let invalidDeviceProof = ProblemError(.invalidDeviceProof)

    private static let reused = ProblemError(.refreshTokenReused)

    package init(environment: ServiceEnvironment) {
        self.environment = environment
    }
}
