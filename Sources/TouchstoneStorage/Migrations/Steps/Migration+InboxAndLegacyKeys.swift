extension Migration {
    /// The inbox: enrolments waiting for another device's approval, transaction confirmations and web logins; and the
    /// keys of the legacy auth0/TouchIDAuth endpoints.
    static let inboxAndLegacyKeys = Migration(
        version: 2,
        name: "inbox_and_legacy_keys",
        statements: [
            "ALTER TABLE enrollments ADD COLUMN approval_challenge TEXT",
            "ALTER TABLE enrollments ADD COLUMN decided_by TEXT",
            "ALTER TABLE enrollments ADD COLUMN delivered INTEGER NOT NULL DEFAULT 0",
            "CREATE INDEX enrollments_pending ON enrollments (user_id, state)",
            """
            CREATE TABLE confirmations (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL,
                publisher TEXT NOT NULL,
                user_id TEXT,
                text TEXT NOT NULL,
                amount TEXT NOT NULL,
                currency TEXT NOT NULL,
                payee TEXT NOT NULL,
                txn TEXT NOT NULL,
                challenge TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                status TEXT NOT NULL,
                decided_at BIGINT,
                device_id TEXT,
                amr TEXT,
                decision TEXT
            )
            """,
            "CREATE INDEX confirmations_user ON confirmations (user_id, status)",
            """
            CREATE TABLE web_logins (
                id TEXT PRIMARY KEY,
                user_id TEXT,
                client_id TEXT NOT NULL,
                publisher TEXT NOT NULL,
                number INTEGER NOT NULL,
                numbers TEXT NOT NULL,
                poll_secret_hash TEXT NOT NULL,
                challenge TEXT NOT NULL,
                browser TEXT NOT NULL,
                ip TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                status TEXT NOT NULL,
                decided_at BIGINT,
                device_id TEXT,
                amr TEXT,
                delivered INTEGER NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX web_logins_user ON web_logins (user_id, created_at)",
            """
            CREATE TABLE legacy_keys (
                sub TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                public_key TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
        ]
    )
}
