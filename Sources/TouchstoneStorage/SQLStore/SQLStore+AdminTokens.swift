import Foundation
import SQLKit

extension SQLStore {
    package func createAdminToken(_ token: AdminTokenRecord, hash: String) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO admin_tokens (id, name, hash, scope, created_at)
                VALUES (\(bind: token.id), \(bind: token.name), \(bind: hash), \(bind: token.scope),
                    \(bind: token.createdAt.storedSeconds))
                ON CONFLICT DO NOTHING RETURNING id
                """
            ).first() != nil
        }
    }

    package func adminTokens() async throws -> [AdminTokenRecord] {
        try await provider.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.adminTokenColumns) FROM admin_tokens ORDER BY name, created_at, id"
            ).all().map(Self.adminToken)
        }
    }

    package func useAdminToken(hash: String, at: Date) async throws -> AdminTokenRecord? {
        try await provider.write { database in
            try await database.raw(
                """
                UPDATE admin_tokens SET last_used_at = \(bind: at.storedSeconds)
                WHERE hash = \(bind: hash) AND revoked_at IS NULL RETURNING \(unsafeRaw: Self.adminTokenColumns)
                """
            ).first().map(Self.adminToken)
        }
    }

    package func revokeAdminToken(name: String, at: Date) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                """
                UPDATE admin_tokens SET revoked_at = \(bind: at.storedSeconds)
                WHERE name = \(bind: name) AND revoked_at IS NULL RETURNING id
                """
            ).first() != nil
        }
    }

    /// The columns ``adminToken(_:)`` reads.
    private static let adminTokenColumns = "id, name, scope, created_at, last_used_at, revoked_at"

    private static func adminToken(_ row: any SQLRow) throws -> AdminTokenRecord {
        AdminTokenRecord(
            id: try row.string("id"), name: try row.string("name"), scope: try row.string("scope"),
            createdAt: try row.date("created_at"), lastUsedAt: try row.optionalDate("last_used_at"),
            revokedAt: try row.optionalDate("revoked_at"))
    }
}
