import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    package func createPasswordSession(_ session: SessionRecord, refreshTokenHash: String, passwordHash: String) async throws
        -> Bool
    {
        try await provider.transaction { database in
            guard try await Self.lockUnchangedPassword(userId: session.userId, passwordHash: passwordHash, in: database)
            else { return false }
            try await Self.insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
            return true
        }
    }

    package func createSession(_ session: SessionRecord, refreshTokenHash: String) async throws {
        try await provider.transaction { database in
            try await Self.insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
        }
    }

    static func insertSession(_ session: SessionRecord, refreshTokenHash: String, in database: any SQLDatabase)
        async throws
    {
        try await database.raw(
            "INSERT INTO sessions (\(unsafeRaw: insertedSessionColumns)) VALUES (\(binds: try sessionValues(session)))"
        ).run()
        try await database.raw(
            """
            INSERT INTO refresh_tokens (\(unsafeRaw: insertedRefreshTokenColumns))
            VALUES (\(binds: refreshTokenValues(refreshTokenHash, of: session)))
            """
        ).run()
    }

    /// The columns a new session is stored in; ``sessionValues(_:)`` gives their values in this order.
    static let insertedSessionColumns = """
        id, user_id, device_id, client_id, amr, acr, auth_time, last_activity_at, created_at, approved_by, scope, \
        provider_session_id, ip, dpop_jkt
        """

    static func sessionValues(_ session: SessionRecord) throws -> [any Encodable & Sendable] {
        [
            session.id, session.userId, session.deviceId, session.clientId, try json(session.amr), session.acr.rawValue,
            session.authTime.storedSeconds, session.lastActivityAt.storedSeconds, session.createdAt.storedSeconds,
            session.approvedBy, session.scope, session.providerSessionId, session.ip, session.dpopJKT,
        ]
    }

    /// The columns of a session's first refresh token; ``refreshTokenValues(_:of:)`` gives their values.
    static let insertedRefreshTokenColumns = "hash, session_id, created_at"

    static func refreshTokenValues(_ hash: String, of session: SessionRecord) -> [any Encodable & Sendable] {
        [hash, session.id, session.createdAt.storedSeconds]
    }

    static let sessionColumns = """
        s.id, s.user_id, s.device_id, s.client_id, s.amr, s.acr, s.auth_time, s.last_activity_at, s.created_at, \
        s.revoked_at, s.approved_by, s.scope, s.provider_session_id, s.ip, s.dpop_jkt
        """

    package func session(id: String) async throws -> SessionRecord? {
        try await provider.read { database in
            try await database.raw("SELECT \(unsafeRaw: Self.sessionColumns) FROM sessions s WHERE s.id = \(bind: id)")
                .first().map(Self.sessionRecord)
        }
    }

    package func refreshToken(hash: String) async throws -> (session: SessionRecord, rotated: Bool)? {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.sessionColumns), r.rotated_at
                FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id WHERE r.hash = \(bind: hash)
                """
            ).first().map { row in (try Self.sessionRecord(row), try row.optionalDate("rotated_at") != nil) }
        }
    }

    package func rotateRefreshToken(hash: String, newHash: String, sessionId: String, at: Date) async throws -> Bool {
        try await provider.transaction { database in
            let rotated = try await database.raw(
                """
                UPDATE refresh_tokens SET rotated_at = \(bind: at.storedSeconds)
                WHERE hash = \(bind: hash) AND rotated_at IS NULL
                    AND session_id IN (SELECT id FROM sessions WHERE id = \(bind: sessionId) AND revoked_at IS NULL)
                RETURNING hash
                """
            ).first() != nil
            guard rotated else {
                try await Self.revokeSession(id: sessionId, reason: "refresh token reused", at: at, in: database)
                return false
            }
            try await database.raw(
                """
                INSERT INTO refresh_tokens (hash, session_id, created_at)
                VALUES (\(bind: newHash), \(bind: sessionId), \(bind: at.storedSeconds))
                """
            ).run()
            try await database.raw(
                "UPDATE sessions SET last_activity_at = \(bind: at.storedSeconds) WHERE id = \(bind: sessionId)"
            ).run()
            return true
        }
    }

    package func recordRefresh(sessionId: String, at: Date) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                """
                UPDATE sessions SET last_activity_at = \(bind: at.storedSeconds)
                WHERE id = \(bind: sessionId) AND revoked_at IS NULL
                RETURNING id
                """
            ).first() != nil
        }
    }

    package func revokeSession(id: String, reason: String, at: Date) async throws {
        try await provider.write { database in
            try await Self.revokeSession(id: id, reason: reason, at: at, in: database)
        }
    }

    package static func revokeSession(id: String, reason: String, at: Date, in database: any SQLDatabase) async throws {
        try await database.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: at.storedSeconds), revoked_reason = \(bind: reason)
            WHERE id = \(bind: id) AND revoked_at IS NULL
            """
        ).run()
    }

    package func unendedSessions(userId: String, activeSince: Date) async throws -> [SessionRecord] {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.sessionColumns) FROM sessions s
                WHERE s.user_id = \(bind: userId) AND s.revoked_at IS NULL
                    AND s.last_activity_at >= \(bind: activeSince.storedSeconds)
                ORDER BY s.created_at, s.id
                """
            ).all().map(Self.sessionRecord)
        }
    }

    package func endSession(id: String, userId: String, reason: String, at: Date, notice: NoticeDraft?) async throws
        -> Bool
    {
        try await provider.transaction { database in
            let ended = try await database.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: at.storedSeconds), revoked_reason = \(bind: reason)
                WHERE id = \(bind: id) AND user_id = \(bind: userId) AND revoked_at IS NULL
                RETURNING provider_session_id
                """
            ).first()
            guard let ended else { return false }
            // A session issued through a sign-in at the provider ends with that sign-in: otherwise the site would get
            // a new one without asking.
            if let providerSessionId = try ended.optionalString("provider_session_id") {
                try await Self.endProviderSession(id: providerSessionId, at: at, in: database)
            }
            if let notice { try await Self.insertNotices([notice], in: database) }
            return true
        }
    }

    private static func sessionRecord(_ row: any SQLRow) throws -> SessionRecord {
        SessionRecord(
            id: try row.string("id"), userId: try row.string("user_id"), deviceId: try row.optionalString("device_id"),
            clientId: try row.string("client_id"), amr: try fromJSON(try row.string("amr"), as: [AuthenticationMethod].self),
            acr: AssuranceLevel(rawValue: try row.string("acr")), authTime: try row.date("auth_time"),
            lastActivityAt: try row.date("last_activity_at"), createdAt: try row.date("created_at"),
            revokedAt: try row.optionalDate("revoked_at"), approvedBy: try row.optionalString("approved_by"),
            scope: try row.optionalString("scope"), providerSessionId: try row.optionalString("provider_session_id"),
            ip: try row.optionalString("ip"), dpopJKT: try row.optionalString("dpop_jkt"))
    }
}
