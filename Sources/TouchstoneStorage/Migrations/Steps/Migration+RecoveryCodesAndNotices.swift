extension Migration {
    /// Recovery codes, security notices in devices' inboxes, and the address that created a session.
    static let recoveryCodesAndNotices = Migration(
        version: 8,
        name: "recovery_codes_and_notices",
        statements: [
            // Recovery codes: SHA-256 digests bound to their account, each spent once (used_at).
            """
            CREATE TABLE recovery_codes (
                user_id TEXT NOT NULL REFERENCES users(id),
                hash TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                used_at BIGINT,
                PRIMARY KEY (user_id, hash)
            )
            """,
            // The code an enrolment was started with, spent by its completion.
            "ALTER TABLE enrollments ADD COLUMN recovery_code_hash TEXT",
            // Security notices in a device's inbox, each with that device's own id, and the account's own copy
            // (device_id NULL) that the web page lists.
            """
            CREATE TABLE notices (
                id TEXT PRIMARY KEY,
                device_id TEXT REFERENCES devices(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                event TEXT NOT NULL,
                detail TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                seq BIGINT NOT NULL
            )
            """,
            // seq orders notices written in the same second (one more than the largest so far).
            "CREATE INDEX notices_seq ON notices (seq)",
            "CREATE INDEX notices_device ON notices (device_id, seq)",
            "CREATE INDEX notices_user ON notices (user_id, seq)",
            "CREATE INDEX notices_expiry ON notices (expires_at)",
            // The address that created a session, for the user's list of sessions.
            "ALTER TABLE sessions ADD COLUMN ip TEXT",
            "CREATE INDEX sessions_user_activity ON sessions (user_id, last_activity_at)",
        ]
    )
}
