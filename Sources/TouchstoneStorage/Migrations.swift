import SQLKit

/// The schema, as ordered migrations that run the same on SQLite and PostgreSQL.
///
/// Times are integer seconds since 1970 (audit times in milliseconds); booleans are 0/1 integers; binary values
/// and JSON are text. Each migration runs in one transaction and is recorded in `schema_migrations`.
enum Migrations {
    package static let all: [[String]] = [
        [
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
        ],
        [
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
        ],
        [
            // Passkeys: the credential record as WebAuthn's Credential (JSON) plus the columns that change or are
            // listed; ceremonies keep the server-side state of a started registration or authentication.
            """
            CREATE TABLE passkeys (
                credential_id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                name TEXT NOT NULL,
                credential TEXT NOT NULL,
                sign_count BIGINT NOT NULL,
                backup_eligible INTEGER NOT NULL,
                backup_state INTEGER NOT NULL,
                aaguid TEXT NOT NULL,
                format TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            )
            """,
            "CREATE INDEX passkeys_user ON passkeys (user_id)",
            """
            CREATE TABLE webauthn_ceremonies (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                user_id TEXT,
                session_id TEXT,
                first_credential_only INTEGER NOT NULL,
                state TEXT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX webauthn_ceremonies_expiry ON webauthn_ceremonies (expires_at)",
            """
            CREATE TABLE server_secrets (
                name TEXT PRIMARY KEY,
                secret TEXT NOT NULL
            )
            """,
        ],
        [
            // Sessions a device approved (web logins) end with that device.
            "ALTER TABLE sessions ADD COLUMN approved_by TEXT",
            "CREATE INDEX sessions_approved_by ON sessions (approved_by)",
            // A device that ever reported being compromised, at enrolment or in an assertion.
            "ALTER TABLE devices ADD COLUMN compromised INTEGER NOT NULL DEFAULT 0",
            // Approval of a new device: when it was asked and decided, and its number matching.
            "ALTER TABLE enrollments ADD COLUMN parked_at BIGINT",
            "ALTER TABLE enrollments ADD COLUMN decided_at BIGINT",
            "ALTER TABLE enrollments ADD COLUMN approval_number INTEGER",
            "ALTER TABLE enrollments ADD COLUMN approval_numbers TEXT",
            "CREATE INDEX enrollments_user ON enrollments (user_id, state)",
            // A device's decision token may carry its PIN: only its digest is kept; relying services get a receipt
            // the server signs from the stored decision.
            "ALTER TABLE confirmations ADD COLUMN decision_digest TEXT",
            "ALTER TABLE confirmations DROP COLUMN decision",
        ],
        [
            // The OpenID Connect provider: apps that are OIDC clients, its sessions (the one cookie), authorization
            // requests waiting for a sign-in or pushed (PAR), and codes.
            """
            CREATE TABLE oidc_clients (
                client_id TEXT PRIMARY KEY REFERENCES apps(client_id),
                name TEXT NOT NULL,
                redirect_uris TEXT NOT NULL,
                post_logout_redirect_uris TEXT NOT NULL,
                secret_hash TEXT,
                id_token_alg TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE provider_sessions (
                id TEXT PRIMARY KEY,
                token_hash TEXT NOT NULL UNIQUE,
                user_id TEXT NOT NULL REFERENCES users(id),
                amr TEXT NOT NULL,
                acr TEXT NOT NULL,
                auth_time BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                ended_at BIGINT,
                approved_by TEXT
            )
            """,
            "CREATE INDEX provider_sessions_user ON provider_sessions (user_id)",
            "CREATE INDEX provider_sessions_approved_by ON provider_sessions (approved_by)",
            """
            CREATE TABLE authorization_requests (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                parameters TEXT NOT NULL,
                pushed INTEGER NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
            """
            CREATE TABLE authorization_codes (
                hash TEXT PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                redirect_uri TEXT NOT NULL,
                code_challenge TEXT NOT NULL,
                nonce TEXT,
                scope TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id),
                provider_session_id TEXT NOT NULL REFERENCES provider_sessions(id),
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT,
                session_id TEXT
            )
            """,
            // Sessions made through the provider: their granted scope and the provider session that ends them.
            "ALTER TABLE sessions ADD COLUMN scope TEXT",
            "ALTER TABLE sessions ADD COLUMN provider_session_id TEXT",
            "CREATE INDEX sessions_provider_session ON sessions (provider_session_id)",
            // ID tokens are RS256 by default: the server keeps a key of each algorithm.
            "ALTER TABLE server_keys ADD COLUMN alg TEXT NOT NULL DEFAULT 'ES256'",
        ],
        [
            // Requests per client address and anonymous endpoint in the current 60-second window.
            """
            CREATE TABLE rate_limits (
                key TEXT PRIMARY KEY,
                window_start BIGINT NOT NULL,
                requests INTEGER NOT NULL
            )
            """,
            // Audit events name the request (its X-Request-Id and user agent) and who acted.
            "ALTER TABLE audit_events ADD COLUMN request_id TEXT",
            "ALTER TABLE audit_events ADD COLUMN user_agent TEXT",
            "ALTER TABLE audit_events ADD COLUMN actor TEXT",
        ],
        [
            // Hardware key attestation: what a device's attestation proved, its App Attest key and receipt, and
            // the builds whose attestations an app accepts (JSON; NULL for none).
            "ALTER TABLE devices ADD COLUMN attestation TEXT",
            "ALTER TABLE devices ADD COLUMN app_attest_key_id TEXT",
            "ALTER TABLE devices ADD COLUMN app_attest_public_key TEXT",
            "ALTER TABLE devices ADD COLUMN app_attest_receipt TEXT",
            "ALTER TABLE apps ADD COLUMN attested_apps TEXT",
        ],
        [
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
        ],
        [
            // The app build a device's attestation proved (JSON; NULL without one, or from before this version):
            // every app the device acts for checks it against its own attested builds.
            "ALTER TABLE devices ADD COLUMN attested_build TEXT",
        ],
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
        for (index, statements) in all.enumerated() {
            let version = index + 1
            try await provider.transaction { database in
                // One instance migrates at a time; the others then find the version claimed.
                try await provider.exclusiveLock(lockKey, in: database)
                let claimed = try await database.raw(
                    """
                    INSERT INTO schema_migrations (version, applied_at) VALUES (\(bind: version), 0)
                    ON CONFLICT (version) DO NOTHING RETURNING version
                    """
                ).first()
                guard claimed != nil else { return }
                for statement in statements {
                    try await database.raw(SQLQueryString(statement)).run()
                }
            }
        }
    }
}
