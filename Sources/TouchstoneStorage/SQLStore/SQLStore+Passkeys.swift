import Foundation
import SQLKit

extension SQLStore {
    static let passkeyColumns = """
        credential_id, user_id, name, credential, sign_count, backup_eligible, backup_state, aaguid, format, \
        created_at, last_used_at
        """

    package func createCeremony(_ c: CeremonyRecord) async throws {
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO webauthn_ceremonies (id, kind, user_id, session_id, first_credential_only, state, expires_at)
                VALUES (\(bind: c.id), \(bind: c.kind.rawValue), \(bind: c.userId), \(bind: c.sessionId),
                    \(bind: c.firstCredentialOnly ? 1 : 0), \(bind: c.state), \(bind: c.expiresAt.storedSeconds))
                """
            ).run()
        }
    }

    package func consumeCeremony(id: String, kind: CeremonyRecord.Kind, sessionId: String?, now: Date) async throws
        -> CeremonyRecord?
    {
        try await provider.write { database in
            let session: SQLQueryString = sessionId.map { "AND session_id = \(bind: $0)" } ?? "AND session_id IS NULL"
            return try await database.raw(
                """
                DELETE FROM webauthn_ceremonies
                WHERE id = \(bind: id) AND kind = \(bind: kind.rawValue) \(session)
                    AND expires_at > \(bind: now.storedSeconds)
                RETURNING id, kind, user_id, session_id, first_credential_only, state, expires_at
                """
            ).first().map { row in
                CeremonyRecord(
                    id: try row.string("id"), kind: kind, userId: try row.optionalString("user_id"),
                    sessionId: try row.optionalString("session_id"), firstCredentialOnly: try row.int("first_credential_only") == 1,
                    state: try row.string("state"), expiresAt: try row.date("expires_at"))
            }
        }
    }

    package func passkeys(userId: String) async throws -> [PasskeyRecord] {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.passkeyColumns) FROM passkeys WHERE user_id = \(bind: userId)
                ORDER BY created_at, credential_id
                """
            ).all().map(Self.passkeyRecord)
        }
    }

    package func passkeyAccount(username: String) async throws -> (userId: String, passkeys: [PasskeyRecord])? {
        try await provider.read { database in
            let rows = try await database.raw(
                """
                SELECT users.id AS account, \(unsafeRaw: Self.passkeyColumns.split(separator: ", ").map { "passkeys.\($0)" }.joined(separator: ", "))
                FROM users LEFT JOIN passkeys ON passkeys.user_id = users.id
                WHERE users.username = \(bind: username)
                ORDER BY passkeys.created_at, passkeys.credential_id
                """
            ).all()
            guard let first = rows.first else { return nil }
            let passkeys = try rows.filter { try $0.optionalString("credential_id") != nil }.map(Self.passkeyRecord)
            return (try first.string("account"), passkeys)
        }
    }

    package func passkey(credentialId: String) async throws -> PasskeyRecord? {
        try await provider.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.passkeyColumns) FROM passkeys WHERE credential_id = \(bind: credentialId)"
            ).first().map(Self.passkeyRecord)
        }
    }

    package func hasCredentials(userId: String) async throws -> Bool {
        try await provider.read { database in
            try await Self.hasCredentials(userId: userId, in: database)
        }
    }

    static func hasCredentials(userId: String, in database: any SQLDatabase) async throws -> Bool {
        try await database.raw(
            """
            SELECT 1 AS found WHERE EXISTS (SELECT 1 FROM passkeys WHERE user_id = \(bind: userId))
                OR EXISTS (SELECT 1 FROM devices WHERE user_id = \(bind: userId) AND revoked_at IS NULL)
            """
        ).first() != nil
    }

    package func createPasskey(_ p: PasskeyRecord, firstCredentialOnly: Bool, notice: NoticeDraft) async throws
        -> PasskeyInsertion
    {
        try await provider.transaction { database in
            // Lock the user's row first, so that two first registrations cannot both see "no credential yet".
            try await database.raw("UPDATE users SET id = id WHERE id = \(bind: p.userId)").run()
            if firstCredentialOnly, try await Self.hasCredentials(userId: p.userId, in: database) {
                return .notFirstCredential
            }
            let inserted = try await database.raw(
                """
                INSERT INTO passkeys (credential_id, user_id, name, credential, sign_count, backup_eligible,
                    backup_state, aaguid, format, created_at, last_used_at)
                VALUES (\(bind: p.credentialId), \(bind: p.userId), \(bind: p.name), \(bind: p.credential),
                    \(bind: Int64(p.signCount)), \(bind: p.backupEligible ? 1 : 0), \(bind: p.backupState ? 1 : 0),
                    \(bind: p.aaguid), \(bind: p.attestationFormat), \(bind: p.createdAt.storedSeconds), NULL)
                ON CONFLICT (credential_id) DO NOTHING RETURNING credential_id
                """
            ).first() != nil
            guard inserted else { return .credentialExists }
            try await Self.insertNotices([notice], in: database)
            return .stored
        }
    }

    package func acceptPasskeyAuthentication(
        _ p: PasskeyRecord, previousSignCount: UInt32, session: SessionRecord, refreshTokenHash: String
    ) async throws -> Bool {
        try await provider.transaction { database in
            let updated = try await database.raw(
                """
                UPDATE passkeys SET credential = \(bind: p.credential), sign_count = \(bind: Int64(p.signCount)),
                    backup_state = \(bind: p.backupState ? 1 : 0), last_used_at = \(bind: p.lastUsedAt?.storedSeconds)
                WHERE credential_id = \(bind: p.credentialId) AND sign_count = \(bind: Int64(previousSignCount))
                RETURNING credential_id
                """
            ).first() != nil
            guard updated else { return false }
            try await Self.insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
            return true
        }
    }

    package func deletePasskey(credentialId: String, userId: String, notice: NoticeDraft) async throws -> Bool {
        try await provider.transaction { database in
            let deleted = try await database.raw(
                """
                DELETE FROM passkeys WHERE credential_id = \(bind: credentialId) AND user_id = \(bind: userId)
                RETURNING credential_id
                """
            ).first() != nil
            if deleted { try await Self.insertNotices([notice], in: database) }
            return deleted
        }
    }

    package func serverSecret(name: String, creating candidate: String) async throws -> String {
        try await provider.transaction { database in
            try await database.raw(
                """
                INSERT INTO server_secrets (name, secret) VALUES (\(bind: name), \(bind: candidate))
                ON CONFLICT (name) DO NOTHING
                """
            ).run()
            return try await database.raw("SELECT secret FROM server_secrets WHERE name = \(bind: name)")
                .first().map { try $0.string("secret") } ?? candidate
        }
    }

    private static func passkeyRecord(_ row: any SQLRow) throws -> PasskeyRecord {
        PasskeyRecord(
            credentialId: try row.string("credential_id"), userId: try row.string("user_id"), name: try row.string("name"),
            credential: try row.string("credential"), signCount: UInt32(try row.decode(column: "sign_count", as: Int64.self)),
            backupEligible: try row.int("backup_eligible") == 1, backupState: try row.int("backup_state") == 1,
            aaguid: try row.string("aaguid"), attestationFormat: try row.string("format"), createdAt: try row.date("created_at"), lastUsedAt: try row.optionalDate("last_used_at"))
    }
}
