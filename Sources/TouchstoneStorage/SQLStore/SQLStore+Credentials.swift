import Foundation
import SQLKit

extension SQLStore {
    package func setPIN(deviceId: String, pinHash: String, notice: NoticeDraft) async throws -> Bool {
        try await provider.transaction { database in
            let set = try await database.raw(
                """
                UPDATE devices SET pin_hash = \(bind: pinHash), pin_failures = 0, pin_locked_at = NULL
                WHERE id = \(bind: deviceId) AND revoked_at IS NULL RETURNING id
                """
            ).first() != nil
            if set { try await Self.insertNotices([notice], in: database) }
            return set
        }
    }

    package func setPassword(
        userId: String, passwordHash: String, keepingSession sessionId: String, at: Date, notice: NoticeDraft
    ) async throws {
        try await provider.transaction { database in
            try await Self.insertNotices([notice], in: database)
            try await database.raw("UPDATE users SET password_hash = \(bind: passwordHash) WHERE id = \(bind: userId)").run()
            try await database.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: at.storedSeconds), revoked_reason = 'password changed'
                WHERE user_id = \(bind: userId) AND id <> \(bind: sessionId) AND revoked_at IS NULL
                """
            ).run()
            // The browser's sign-ins at the provider end too (the sessions issued through them are revoked above).
            try await Self.endProviderSessions(userId: userId, at: at, in: database)
            // Enrolments started with the old password end, those waiting for approval included.
            try await database.raw(
                """
                UPDATE enrollments SET state = 'cancelled'
                WHERE user_id = \(bind: userId) AND state IN ('started', 'consumed', 'pending')
                """
            ).run()
        }
    }
}
