import TouchstoneStorage

/// Whether an access token is one of ours of a live session, whoever presents it (the v1 API, introspection,
/// userinfo, revocation).
struct AccessTokenCheck: Sendable {
    let signer: TokenSigner
    let sessions: any SessionStore

    /// The verified access token of a live session; `nil` otherwise.
    func liveIdentity(of token: String) async throws -> AccessIdentity? {
        guard let claims = try await signer.verify(token),
            let session = try await sessions.session(id: claims.sid), session.revokedAt == nil,
            session.userId == claims.sub, session.deviceId == claims.did
        else { return nil }
        return AccessIdentity(claims: claims, session: session)
    }
}
