import Foundation
import SQLKit

extension SQLStore {
    package func createUser(_ user: UserRecord) async throws {
        let inserted = try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO users (id, username, password_hash, created_at)
                VALUES (\(bind: user.id), \(bind: user.username), \(bind: user.passwordHash), \(bind: user.createdAt.storedSeconds))
                ON CONFLICT (username) DO NOTHING RETURNING id
                """
            ).first() != nil
        }
        guard inserted else { throw StoreError.conflict }
    }

    package func user(username: String) async throws -> UserRecord? {
        try await provider.read { database in
            try await database.raw(
                "SELECT id, username, password_hash, created_at FROM users WHERE username = \(bind: username)"
            ).first().map(Self.userRecord)
        }
    }

    package func user(id: String) async throws -> UserRecord? {
        try await provider.read { database in
            try await database.raw("SELECT id, username, password_hash, created_at FROM users WHERE id = \(bind: id)")
                .first().map(Self.userRecord)
        }
    }

    package func users() async throws -> [UserRecord] {
        try await provider.read { database in
            try await database.raw("SELECT id, username, password_hash, created_at FROM users ORDER BY username")
                .all().map(Self.userRecord)
        }
    }

    static func userRecord(_ row: any SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.string("id"), username: try row.string("username"),
            passwordHash: try row.string("password_hash"), createdAt: try row.date("created_at"))
    }
}
