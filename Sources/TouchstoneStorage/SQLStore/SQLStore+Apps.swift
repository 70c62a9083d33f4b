import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    package func app(clientId: String) async throws -> AppRecord? {
        try await provider.read { database in
            try await database.raw(
                "SELECT client_id, publisher, policy, attested_apps FROM apps WHERE client_id = \(bind: clientId)"
            ).first().map { try Self.appRecord($0) }
        }
    }

    package func apps() async throws -> [AppRecord] {
        try await provider.read { database in
            try await database.raw("SELECT client_id, publisher, policy, attested_apps FROM apps ORDER BY client_id")
                .all().map { try Self.appRecord($0) }
        }
    }

    package func saveApp(_ app: AppRecord, at now: Date) async throws {
        let policy = try Self.json(app.policy)
        let attested = app.attestedApps == AttestedApps() ? nil : try Self.json(app.attestedApps)
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO apps (client_id, publisher, policy, attested_apps, created_at)
                VALUES (\(bind: app.clientId), \(bind: app.publisher), \(bind: policy), \(bind: attested),
                        \(bind: now.storedSeconds))
                ON CONFLICT (client_id) DO UPDATE SET publisher = \(bind: app.publisher), policy = \(bind: policy),
                    attested_apps = \(bind: attested)
                """
            ).run()
        }
    }

    package func createDemoAppIfEmpty(_ app: AppRecord, at now: Date) async throws {
        let policy = try Self.json(app.policy)
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO apps (client_id, publisher, policy, created_at)
                SELECT \(bind: app.clientId), \(bind: app.publisher), \(bind: policy), \(bind: now.storedSeconds)
                WHERE NOT EXISTS (SELECT 1 FROM apps)
                ON CONFLICT (client_id) DO NOTHING
                """
            ).run()
        }
    }

    package func createAPIKey(_ key: APIKeyRecord, hash: String) async throws {
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO api_keys (id, client_id, hash, created_at)
                VALUES (\(bind: key.id), \(bind: key.clientId), \(bind: hash), \(bind: key.createdAt.storedSeconds))
                """
            ).run()
        }
    }

    package func apiKeyClientId(hash: String) async throws -> String? {
        try await provider.read { database in
            try await database.raw(
                "SELECT client_id FROM api_keys WHERE hash = \(bind: hash) AND revoked_at IS NULL"
            ).first()?.string("client_id")
        }
    }

    package func apiKeys() async throws -> [APIKeyRecord] {
        try await provider.read { database in
            try await database.raw("SELECT id, client_id, created_at, revoked_at FROM api_keys ORDER BY created_at, id")
                .all().map { row in
                    APIKeyRecord(
                        id: try row.string("id"), clientId: try row.string("client_id"),
                        createdAt: try row.date("created_at"), revokedAt: try row.optionalDate("revoked_at"))
                }
        }
    }

    package func revokeAPIKey(id: String, at: Date) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                """
                UPDATE api_keys SET revoked_at = \(bind: at.storedSeconds)
                WHERE id = \(bind: id) AND revoked_at IS NULL RETURNING id
                """
            ).first() != nil
        }
    }

    /// - Parameter prefix: what the columns' names start with (``prefixedAppColumns``: `app_`).
    static func appRecord(_ row: any SQLRow, prefix: String = "") throws -> AppRecord {
        AppRecord(
            clientId: try row.string(prefix + "client_id"), publisher: try row.string(prefix + "publisher"),
            policy: try storedPolicies.value(of: try row.string(prefix + "policy")),
            attestedApps: try row.optionalString(prefix + "attested_apps").map { try fromJSON($0, as: AttestedApps.self) }
                ?? AttestedApps())
    }

    /// The columns of `apps AS a` that ``appRecord(_:prefix:)`` reads, named `app_…` so that they can share a row
    /// with another table's.
    static let prefixedAppColumns = """
        a.client_id AS app_client_id, a.publisher AS app_publisher, a.policy AS app_policy, \
        a.attested_apps AS app_attested_apps
        """
}
