import SQLKit

/// The schema, as named steps in order that run the same on SQLite and PostgreSQL (one file each, in `Steps/`).
///
/// Times are integer seconds since 1970 (audit times in milliseconds); booleans are 0/1 integers; binary values
/// and JSON are text. Each step runs in one transaction and is recorded in `schema_migrations` by its version.
enum Migrations {
    /// Every step, oldest first; a new step is appended.
    package static let all: [Migration] = [
        .initialSchema,
        .inboxAndLegacyKeys,
        .passkeys,
        .approvalsAndCompromise,
        .openIDProvider,
        .rateLimitsAndAuditContext,
        .keyAttestation,
        .recoveryCodesAndNotices,
        .attestedBuild,
        .push,
        .clientKeysAndDPoP,
        .ciba,
        .paymentDetailsAtSignIn,
        .adminTokens,
        .webhooks,
    ]

    /// The advisory lock migrations hold (PostgreSQL); any constant shared by every instance.
    static let lockKey: Int64 = 0x746F_7563_6873

    /// Brings the schema up to date; safe to run from several processes at once.
    package static func run(on provider: any SQLDatabaseProvider) async throws {
        try await provider.transaction { database in
            try await provider.exclusiveLock(lockKey, in: database)
            try await database.raw(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)"
            ).run()
        }
        for migration in all {
            try await provider.transaction { database in
                // One instance migrates at a time; the others then find the version claimed.
                try await provider.exclusiveLock(lockKey, in: database)
                let claimed = try await database.raw(
                    """
                    INSERT INTO schema_migrations (version, applied_at) VALUES (\(bind: migration.version), 0)
                    ON CONFLICT (version) DO NOTHING RETURNING version
                    """
                ).first()
                guard claimed != nil else { return }
                for statement in migration.statements {
                    try await database.raw(SQLQueryString(statement)).run()
                }
            }
        }
    }
}
