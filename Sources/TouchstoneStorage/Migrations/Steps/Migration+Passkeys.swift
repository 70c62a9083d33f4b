extension Migration {
    /// Passkeys, the WebAuthn ceremonies that create and use them, and server-wide secrets.
    static let passkeys = Migration(
        version: 3,
        name: "passkeys",
        statements: [
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
        ]
    )
}
