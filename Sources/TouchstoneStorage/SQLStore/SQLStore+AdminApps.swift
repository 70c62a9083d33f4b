import Foundation
import SQLKit

extension SQLStore {
    package func createApp(_ app: AppRecord, at now: Date) async throws -> Bool {
        let policy = try Self.json(app.policy)
        let attested = app.attestedApps == AttestedApps() ? nil : try Self.json(app.attestedApps)
        return try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO apps (client_id, publisher, policy, attested_apps, created_at)
                VALUES (\(bind: app.clientId), \(bind: app.publisher), \(bind: policy), \(bind: attested),
                        \(bind: now.storedSeconds))
                ON CONFLICT (client_id) DO NOTHING RETURNING client_id
                """
            ).first() != nil
        }
    }

    package func deleteApp(clientId: String, at now: Date) async throws -> AppDeletion {
        try await provider.transaction { database in
            // The app's row is locked first, so that two deletions, or a deletion and a change, come one after the other.
            guard
                try await database.raw(
                    "UPDATE apps SET client_id = client_id WHERE client_id = \(bind: clientId) RETURNING client_id"
                ).first() != nil
            else { return .notFound }
            guard
                try await database.raw(
                    "SELECT id FROM devices WHERE client_id = \(bind: clientId) AND revoked_at IS NULL LIMIT 1"
                ).first() == nil
            else { return .hasActiveDevices }
            try await database.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: now.storedSeconds), revoked_reason = 'app deleted'
                WHERE client_id = \(bind: clientId) AND revoked_at IS NULL
                """
            ).run()
            // Every table whose rows name the app by a foreign key, then the app.
            for table in [
                "api_keys", "push_credentials", "ciba_clients", "authorization_codes", "authorization_requests",
                "oidc_clients", "apps",
            ] {
                try await database.raw("DELETE FROM \(unsafeRaw: table) WHERE client_id = \(bind: clientId)").run()
            }
            return .deleted
        }
    }
}
