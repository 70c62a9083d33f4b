import Foundation
import SQLKit

extension SQLStore {
    package func createLegacyKey(sub: String, userId: String, publicKey: String, at: Date, passwordHash: String) async throws
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

    package func legacyKey(sub: String) async throws -> (userId: String, publicKey: String)? {
        try await provider.read { database in
            try await database.raw("SELECT user_id, public_key FROM legacy_keys WHERE sub = \(bind: sub)").first().map {
                (try $0.string("user_id"), try $0.string("public_key"))
            }
        }
    }
}
