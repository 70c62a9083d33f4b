import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    package func replaceRecoveryCodes(userId: String, hashes: [String], at: Date, notice: NoticeDraft) async throws {
        try await provider.transaction { database in
            // The user's row first, as an enrolment's completion takes it: a completion that spends an old code comes
            // wholly before this or finds the code gone.
            try await database.raw("UPDATE users SET id = id WHERE id = \(bind: userId)").run()
            try await database.raw("DELETE FROM recovery_codes WHERE user_id = \(bind: userId)").run()
            for hash in hashes {
                try await database.raw(
                    """
                    INSERT INTO recovery_codes (user_id, hash, created_at)
                    VALUES (\(bind: userId), \(bind: hash), \(bind: at.storedSeconds))
                    """
                ).run()
            }
            try await Self.insertNotices([notice], in: database)
        }
    }

    package func unusedRecoveryCodeHashes(userId: String) async throws -> [String] {
        try await provider.read { database in
            try await database.raw(
                "SELECT hash FROM recovery_codes WHERE user_id = \(bind: userId) AND used_at IS NULL ORDER BY hash"
            ).all().map { try $0.string("hash") }
        }
    }

    package func hasRecoveryCredentials(userId: String) async throws -> Bool {
        try await provider.read { database in
            try await Self.hasRecoveryCredentials(userId: userId, in: database)
        }
    }

    /// Whether the user has a passkey or an unused recovery code, inside the caller's transaction.
    static func hasRecoveryCredentials(userId: String, in database: any SQLDatabase) async throws -> Bool {
        try await database.raw(
            """
            SELECT 1 AS found WHERE EXISTS (SELECT 1 FROM passkeys WHERE user_id = \(bind: userId))
                OR EXISTS (SELECT 1 FROM recovery_codes WHERE user_id = \(bind: userId) AND used_at IS NULL)
            """
        ).first() != nil
    }

    /// Spends one unused recovery code of the user: one conditional statement, so that of two enrolments (on any
    /// instances) spending the same code, exactly one does. `false` when it is spent or gone.
    static func spendRecoveryCode(userId: String, hash: String, at: Date, in database: any SQLDatabase) async throws
        -> Bool
    {
        try await database.raw(
            """
            UPDATE recovery_codes SET used_at = \(bind: at.storedSeconds)
            WHERE user_id = \(bind: userId) AND hash = \(bind: hash) AND used_at IS NULL
            RETURNING hash
            """
        ).first() != nil
    }

    package func resetUser(userId: String, at: Date) async throws {
        let now = at.storedSeconds
        try await provider.transaction { database in
            let exists = try await database.raw("UPDATE users SET id = id WHERE id = \(bind: userId) RETURNING id").first() != nil
            let devices = try await database.raw(
                "SELECT id FROM devices WHERE user_id = \(bind: userId) AND revoked_at IS NULL ORDER BY id"
            ).all().map { try $0.string("id") }
            for deviceId in devices {
                _ = try await Self.revokeDevice(id: deviceId, reason: "user reset by administrator", at: at, in: database)
            }
            try await database.raw("DELETE FROM passkeys WHERE user_id = \(bind: userId)").run()
            try await database.raw("DELETE FROM legacy_keys WHERE user_id = \(bind: userId)").run()
            try await Self.endProviderSessions(userId: userId, at: at, in: database)
            try await database.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: now), revoked_reason = 'user reset by administrator'
                WHERE user_id = \(bind: userId) AND revoked_at IS NULL
                """
            ).run()
            try await database.raw(
                """
                UPDATE enrollments SET state = 'cancelled'
                WHERE user_id = \(bind: userId) AND state IN ('started', 'consumed', 'pending')
                """
            ).run()
            try await database.raw(
                "UPDATE recovery_codes SET used_at = \(bind: now) WHERE user_id = \(bind: userId) AND used_at IS NULL"
            ).run()
            if exists { try await Self.queueWebhookEvent(.userReset, WebhookEventData(userId: userId), at: at, in: database) }
        }
    }
}
