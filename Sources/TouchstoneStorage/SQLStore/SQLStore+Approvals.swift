import Foundation
import SQLKit

/// What requests approved on a device (web logins, CIBA requests) share: the approval limits counted when one is
/// made, and the session its approval opens.
extension SQLStore {
    /// What storing an approved item's session came to.
    enum ApprovedSession {
        case stored
        /// An earlier caller took the item's session.
        case taken
        /// The approving device is no longer active: no session.
        case approverInactive
    }

    /// Inside the caller's transaction: whether a new request for `userId` goes beyond `limits` among `table`'s rows of
    /// the user (and of `clientId` when given): one pending, `perWindow` in the window, none within the cool-down
    /// after a denial. The user's row is locked first, so that concurrent requests count one another (PostgreSQL).
    /// - Parameter table: `web_logins` or `ciba_requests` (a constant, never input).
    static func isBeyondApprovalLimits(
        in table: String, userId: String, clientId: String?, limits: ApprovalLimits, at now: Int64,
        in database: any SQLDatabase
    ) async throws -> Bool {
        try await database.raw("UPDATE users SET id = id WHERE id = \(bind: userId)").run()
        let ofClient: SQLQueryString = clientId.map { clientId -> SQLQueryString in " AND client_id = \(bind: clientId)" } ?? ""
        let recent = try await database.raw(
            """
            SELECT
                SUM(CASE WHEN status = 'pending' AND expires_at > \(bind: now) THEN 1 ELSE 0 END) AS pending,
                SUM(CASE WHEN created_at > \(bind: now - limits.window) THEN 1 ELSE 0 END) AS recent,
                SUM(CASE WHEN status = 'denied' AND decided_at > \(bind: now - limits.coolDown) THEN 1 ELSE 0 END) AS denied
            FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)
            """ + ofClient
        ).first()
        let pending = try recent?.decode(column: "pending", as: Int?.self) ?? 0
        let recentCount = try recent?.decode(column: "recent", as: Int?.self) ?? 0
        let denied = try recent?.decode(column: "denied", as: Int?.self) ?? 0
        return pending > 0 || recentCount >= limits.perWindow || denied > 0
    }

    /// Stores an approved item's session for the first caller only, while its approving device (`approvedBy`) is
    /// active: that device's row stays locked until commit, so its revocation comes wholly before (no session) or
    /// after (and ends the session, which it approved).
    /// - Parameter take: marks the item's session taken for that device; answers a row when it was not taken yet.
    static func storeApprovedSession(
        _ session: SessionRecord, refreshTokenHash: String, taking take: (String) -> SQLQueryString,
        in database: any SQLDatabase
    ) async throws -> ApprovedSession {
        guard let approver = session.approvedBy,
            try await database.raw(
                "UPDATE devices SET id = id WHERE id = \(bind: approver) AND revoked_at IS NULL RETURNING id"
            ).first() != nil
        else { return .approverInactive }
        guard try await database.raw(take(approver)).first() != nil else { return .taken }
        try await insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
        return .stored
    }
}
