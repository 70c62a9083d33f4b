import Foundation

/// Sessions and their rotating refresh tokens. Every method is atomic on its own.
package protocol SessionStore: Sendable {
    func createSession(_ session: SessionRecord, refreshTokenHash: String) async throws
    /// Stores a session made with the password if the user's password hash is still `passwordHash`; `false` when it
    /// changed meanwhile (a change and this insert exclude each other).
    func createPasswordSession(_ session: SessionRecord, refreshTokenHash: String, passwordHash: String) async throws
        -> Bool
    func session(id: String) async throws -> SessionRecord?
    /// The session a refresh token belongs to, and whether the token was already rotated.
    func refreshToken(hash: String) async throws -> (session: SessionRecord, rotated: Bool)?
    /// In one transaction: marks `hash` rotated, stores `newHash` for the same live session and records the
    /// activity. When `hash` was already rotated (a reuse, even a concurrent one), revokes the session instead.
    /// - Returns: `false` when the token was not rotated by this call.
    func rotateRefreshToken(hash: String, newHash: String, sessionId: String, at: Date) async throws -> Bool
    /// Records the activity of a live session whose refresh token is used without rotation (a FAPI 2.0 client's).
    /// - Returns: `false` when the session has been revoked.
    func recordRefresh(sessionId: String, at: Date) async throws -> Bool
    func revokeSession(id: String, reason: String, at: Date) async throws
    /// The user's sessions that are not ended and were active at or after `activeSince`, oldest first.
    func unendedSessions(userId: String, activeSince: Date) async throws -> [SessionRecord]
    /// In one transaction: ends the user's session `id` (and the provider session it was issued through, with that
    /// one's sessions) and leaves `notice`; `false` (nothing written) when the user has no such unended session.
    func endSession(id: String, userId: String, reason: String, at: Date, notice: NoticeDraft?) async throws -> Bool
}
