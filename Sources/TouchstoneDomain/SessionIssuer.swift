import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// A session ready to be stored; its access token is signed once it is (``SessionIssuer/issue(_:)``).
package struct PreparedSession: Sendable {
    package let record: SessionRecord
    /// Returned once, when the session is stored; only its digest is kept.
    let refreshToken: String
    package let refreshTokenHash: String
    /// The device key its access tokens are bound to (`cnf.jkt`), for a device session.
    let jkt: String?
}

/// Makes sessions and signs their access tokens. Storing a session is the caller's, in the transaction that decides
/// it; its first access token is signed only once that has committed, so that a refusal costs no signature.
package struct SessionIssuer: Sendable {
    let clock: any WallClock
    let random: any RandomSource
    let signer: TokenSigner
    /// The `iss` of every token.
    let issuer: String
    /// Seconds an access token of a session lives.
    let accessTokenLifetime: Int

    package init(clock: any WallClock, random: any RandomSource, signer: TokenSigner, settings: ServerSettings) {
        self.clock = clock
        self.random = random
        self.signer = signer
        issuer = settings.issuer
        accessTokenLifetime = settings.accessTokenLifetime
    }

    /// Builds a new session for the caller to store; nothing is signed yet.
    /// - Parameters:
    ///   - approvedBy: the device whose approval makes this session (a web login); it ends with that device.
    ///   - ip: the address of the request that creates it, as the user's list of sessions shows it.
    package func prepare(
        userId: String, device: DeviceRecord?, clientId: String, amr: [AuthenticationMethod], acr: AssuranceLevel,
        approvedBy: String? = nil, ip: String?
    ) -> PreparedSession {
        let now = clock.now()
        let record = SessionRecord(
            id: random.timeOrderedID(at: now), userId: userId, deviceId: device?.id, clientId: clientId,
            amr: amr, acr: acr, authTime: now, lastActivityAt: now, createdAt: now, revokedAt: nil, approvedBy: approvedBy,
            ip: ip)
        let (refreshToken, hash) = self.refreshToken()
        return PreparedSession(
            record: record, refreshToken: refreshToken, refreshTokenHash: hash, jkt: device?.deviceKeyThumbprint)
    }

    /// The session to return for `prepared` once it is stored: its first access token signed now.
    /// - ⚠️ Only after the transaction that stores the session has committed.
    package func issue(_ prepared: PreparedSession) async throws -> Session {
        try await session(prepared.record, jkt: prepared.jkt, refreshToken: prepared.refreshToken)
    }

    /// A new refresh token and the digest it is stored as.
    func refreshToken() -> (token: String, hash: String) {
        let token = random.token()
        return (token, SecretDigest.sha256(token))
    }

    /// The wire form of `session` with a new access token and `refreshToken`.
    func session(_ session: SessionRecord, jkt: String?, refreshToken: String) async throws -> Session {
        Session(
            accessToken: try await accessToken(for: session, jkt: jkt, scope: "session", lifetime: accessTokenLifetime),
            refreshToken: refreshToken, expiresIn: accessTokenLifetime, amr: session.amr, acr: session.acr,
            userId: session.userId, deviceId: session.deviceId, scope: "session")
    }

    /// Signs an access token of `session`, with what a device approved when `grant` is given.
    package func accessToken(for session: SessionRecord, jkt: String?, scope: String, lifetime: Int) async throws -> String {
        try await accessToken(for: session, jkt: jkt, scope: scope, lifetime: lifetime, grant: nil)
    }

    func accessToken(
        for session: SessionRecord, jkt: String?, scope: String, lifetime: Int, grant: AuthorizationGrant?
    ) async throws -> String {
        let now = Int64(clock.now().timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: issuer, aud: session.clientId, sub: session.userId, sid: session.id,
            did: session.deviceId, amr: session.amr, acr: session.acr,
            auth_time: Int64(session.authTime.timeIntervalSince1970), scope: scope,
            cnf: jkt.map { AccessTokenClaims.Confirmation(jkt: $0) }, iat: now, exp: now + Int64(lifetime),
            jti: random.recordID(), authorization_details: grant?.authorizationDetails, txn: grant?.txn)
        return try await signer.sign(claims)
    }
}
