import Foundation
import SQLKit

extension SQLStore {
    func setPIN(deviceId: String, pinHash: String) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                """
                UPDATE devices SET pin_hash = \(bind: pinHash), pin_failures = 0, pin_locked_at = NULL
                WHERE id = \(bind: deviceId) AND revoked_at IS NULL RETURNING id
                """
            ).first() != nil
        }
    }

    func setPassword(userId: String, passwordHash: String, keepingSession sessionId: String, at: Date) async throws {
        try await provider.transaction { database in
            try await database.raw("UPDATE users SET password_hash = \(bind: passwordHash) WHERE id = \(bind: userId)").run()
            try await database.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: at.storedSeconds), revoked_reason = 'password changed'
                WHERE user_id = \(bind: userId) AND id <> \(bind: sessionId) AND revoked_at IS NULL
                """
            ).run()
            // Enrolments started with the old password end, those waiting for approval included.
            try await database.raw(
                """
                UPDATE enrollments SET state = 'cancelled'
                WHERE user_id = \(bind: userId) AND state IN ('started', 'consumed', 'pending')
                """
            ).run()
        }
    }

    func createLegacyKey(sub: String, userId: String, publicKey: String, at: Date, passwordHash: String) async throws
        -> Bool
    {
        let inserted = try await provider.transaction { database -> Bool? in
            guard try await Self.lockUnchangedPassword(userId: userId, passwordHash: passwordHash, in: database) else {
                return nil
            }
            return try await database.raw(
                """
                INSERT INTO legacy_keys (sub, user_id, public_key, created_at)
                VALUES (\(bind: sub), \(bind: userId), \(bind: publicKey), \(bind: at.storedSeconds))
                ON CONFLICT (sub) DO NOTHING RETURNING sub
                """
            ).first() != nil
        }
        guard let inserted else { return false }
        guard inserted else { throw StoreError.conflict }
        return true
    }

    func legacyKey(sub: String) async throws -> (userId: String, publicKey: String)? {
        try await provider.read { database in
            try await database.raw("SELECT user_id, public_key FROM legacy_keys WHERE sub = \(bind: sub)").first().map {
                (try $0.string("user_id"), try $0.string("public_key"))
            }
        }
    }
}
