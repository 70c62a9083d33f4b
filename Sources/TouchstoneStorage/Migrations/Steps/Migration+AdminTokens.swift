extension Migration {
    /// The admin API's tokens (their SHA-256, a name unique among live ones, a scope), and who acted in an audit
    /// event beyond its kind: an id and a name (an admin token's).
    static let adminTokens = Migration(
        version: 14,
        name: "admin_tokens",
        statements: [
            """
            CREATE TABLE admin_tokens (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                hash TEXT NOT NULL UNIQUE,
                scope TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                revoked_at BIGINT
            )
            """,
            // One live token per name; a revoked token's name may be given again.
            "CREATE UNIQUE INDEX admin_tokens_live_name ON admin_tokens (name) WHERE revoked_at IS NULL",
            "ALTER TABLE audit_events ADD COLUMN actor_id TEXT",
            "ALTER TABLE audit_events ADD COLUMN actor_name TEXT",
            // The admin API's audit query: newest first, by type.
            "CREATE INDEX audit_events_event ON audit_events (event, at_ms)",
        ]
    )
}
