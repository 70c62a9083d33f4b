extension Migration {
    /// The OpenID Connect provider: its clients, provider sessions, authorization requests and codes; the sessions it
    /// makes; a signing key per algorithm.
    static let openIDProvider = Migration(
        version: 5,
        name: "openid_provider",
        statements: [
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
        ]
    )
}
