extension Migration {
    /// The first schema: apps, users, devices, enrolments, challenges, spent tokens, sessions and their refresh tokens,
    /// API keys, the server's signing keys, password throttling and the audit log.
    static let initialSchema = Migration(
        version: 1,
        name: "initial_schema",
        statements: [
            """
            CREATE TABLE apps (
                client_id TEXT PRIMARY KEY,
                publisher TEXT NOT NULL,
                policy TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                username TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE devices (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                client_id TEXT NOT NULL,
                publisher TEXT NOT NULL,
                name TEXT NOT NULL,
                model TEXT NOT NULL,
                vendor_id TEXT NOT NULL,
                os TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                device_key TEXT NOT NULL,
                device_key_thumbprint TEXT NOT NULL,
                biometric_key TEXT,
                biometric_key_thumbprint TEXT,
                pin_hash TEXT,
                pin_failures INTEGER NOT NULL DEFAULT 0,
                pin_locked_at BIGINT,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                revoked_at BIGINT,
                revoked_reason TEXT
            )
            """,
            "CREATE INDEX devices_user ON devices (user_id)",
            """
            CREATE TABLE enrollments (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                client_id TEXT NOT NULL,
                challenge TEXT NOT NULL,
                challenge_expires_at BIGINT NOT NULL,
                state TEXT NOT NULL,
                poll_secret_hash TEXT,
                pending_expires_at BIGINT,
                pending_device TEXT,
                device_id TEXT,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE challenges (
                challenge TEXT PRIMARY KEY,
                subject TEXT NOT NULL,
                purpose TEXT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX challenges_expiry ON challenges (expires_at)",
            """
            CREATE TABLE used_tokens (
                digest TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX used_tokens_expiry ON used_tokens (expires_at)",
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                device_id TEXT,
                client_id TEXT NOT NULL,
                amr TEXT NOT NULL,
                acr TEXT NOT NULL,
                auth_time BIGINT NOT NULL,
                last_activity_at BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT,
                revoked_reason TEXT
            )
            """,
            "CREATE INDEX sessions_device ON sessions (device_id)",
            "CREATE INDEX sessions_user ON sessions (user_id)",
            """
            CREATE TABLE refresh_tokens (
                hash TEXT PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(id),
                created_at BIGINT NOT NULL,
                rotated_at BIGINT
            )
            """,
            "CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id)",
            """
            CREATE TABLE api_keys (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            """
            CREATE TABLE server_keys (
                kid TEXT PRIMARY KEY,
                private_key TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                activates_at BIGINT NOT NULL,
                retired_at BIGINT
            )
            """,
            """
            CREATE TABLE password_throttle (
                key TEXT PRIMARY KEY,
                failures INTEGER NOT NULL,
                last_failure_at BIGINT NOT NULL,
                blocked_until BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE audit_events (
                id TEXT PRIMARY KEY,
                at_ms BIGINT NOT NULL,
                event TEXT NOT NULL,
                outcome TEXT NOT NULL,
                user_id TEXT,
                device_id TEXT,
                client_id TEXT,
                ip TEXT,
                detail TEXT
            )
            """,
            "CREATE INDEX audit_events_time ON audit_events (at_ms)",
            "CREATE INDEX audit_events_user ON audit_events (user_id, at_ms)",
        ]
    )
}
