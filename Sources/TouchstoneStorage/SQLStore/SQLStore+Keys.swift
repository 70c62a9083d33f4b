import Foundation
import SQLKit

extension SQLStore {
    package func serverKeys() async throws -> [ServerKeyRecord] {
        try await provider.read { database in
            try await database.raw(
                "SELECT kid, alg, private_key, created_at, activates_at, retired_at FROM server_keys ORDER BY activates_at, kid"
            ).all().map { row in
                ServerKeyRecord(
                    kid: try row.string("kid"), algorithm: try row.string("alg"), privateKey: try row.string("private_key"),
                    createdAt: try row.date("created_at"), activatesAt: try row.date("activates_at"),
                    retiredAt: try row.optionalDate("retired_at"))
            }
        }
    }

    package func createFirstServerKey(_ key: ServerKeyRecord) async throws {
        try await provider.transaction { database in
            // Two instances starting on an empty database must not both make a first key.
            try await self.provider.exclusiveLock(Migrations.lockKey, in: database)
            guard try await database.raw("SELECT kid FROM server_keys WHERE alg = \(bind: key.algorithm)").first() == nil
            else { return }
            try await Self.insertServerKey(key, in: database)
        }
    }

    package func rotateServerKey(next: ServerKeyRecord) async throws {
        try await provider.transaction { database in
            try await database.raw(
                """
                UPDATE server_keys SET retired_at = \(bind: next.activatesAt.storedSeconds)
                WHERE retired_at IS NULL AND alg = \(bind: next.algorithm)
                """
            ).run()
            try await Self.insertServerKey(next, in: database)
        }
    }

    private static func insertServerKey(_ key: ServerKeyRecord, in database: any SQLDatabase) async throws {
        try await database.raw(
            """
            INSERT INTO server_keys (kid, alg, private_key, created_at, activates_at, retired_at)
            VALUES (\(bind: key.kid), \(bind: key.algorithm), \(bind: key.privateKey), \(bind: key.createdAt.storedSeconds),
                \(bind: key.activatesAt.storedSeconds), \(bind: key.retiredAt?.storedSeconds))
            """
        ).run()
    }
}
