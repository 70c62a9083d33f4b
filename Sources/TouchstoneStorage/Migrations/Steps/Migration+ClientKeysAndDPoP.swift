extension Migration {
    /// FAPI 2.0: clients' public keys (private_key_jwt) and profile, the DPoP key a code or a session's refresh tokens
    /// are bound to, and the spent `jti`s of client assertions and DPoP proofs.
    static let clientKeysAndDPoP = Migration(
        version: 11,
        name: "client_keys_and_dpop",
        statements: [
            // The client's JWK Set (public keys only) as JSON; NULL: the client has no keys.
            "ALTER TABLE oidc_clients ADD COLUMN jwks TEXT",
            // 1: registered with --fapi (the FAPI 2.0 Security Profile applies).
            "ALTER TABLE oidc_clients ADD COLUMN fapi INTEGER NOT NULL DEFAULT 0",
            // The RFC 7638 thumbprint of the DPoP key the code may be exchanged with only (PAR's dpop_jkt or proof).
            "ALTER TABLE authorization_codes ADD COLUMN dpop_jkt TEXT",
            // The DPoP key a public client's refresh tokens are bound to.
            "ALTER TABLE sessions ADD COLUMN dpop_jkt TEXT",
            // A client assertion's or DPoP proof's jti, namespaced ('client:' client id, 'dpop:' key thumbprint, then
            // ':' and the jti), kept until it could no longer be accepted.
            """
            CREATE TABLE spent_jtis (
                id TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX spent_jtis_expiry ON spent_jtis (expires_at)",
        ]
    )
}
