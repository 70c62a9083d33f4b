import Foundation
import SQLKit

extension SQLStore {
    package func setClientJWKS(clientId: String, jwks: String) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                "UPDATE oidc_clients SET jwks = \(bind: jwks) WHERE client_id = \(bind: clientId) RETURNING client_id"
            ).first() != nil
        }
    }

    package func spendJTI(_ id: String, expiresAt: Date, now: Date) async throws -> Bool {
        try await provider.write { database in
            // A row that has expired (and not yet been purged) no longer counts: it is spent again.
            try await database.raw(
                """
                INSERT INTO spent_jtis (id, expires_at) VALUES (\(bind: id), \(bind: expiresAt.storedSeconds))
                ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at
                WHERE spent_jtis.expires_at <= \(bind: now.storedSeconds)
                RETURNING id
                """
            ).first() != nil
        }
    }
}
