extension Migration {
    /// OpenID CIBA: which clients may ask (poll or ping), the requests waiting for a device's decision, and the outbox
    /// of ping notifications.
    static let ciba = Migration(
        version: 12,
        name: "ciba",
        statements: [
            // A client registered with --ciba-mode; ping clients have their notification endpoint.
            """
            CREATE TABLE ciba_clients (
                client_id TEXT PRIMARY KEY REFERENCES apps(client_id),
                mode TEXT NOT NULL,
                notification_endpoint TEXT
            )
            """,
            // One row per bc-authorize answer, also for unknown users and requests over the limits ('suppressed').
            // auth_req_hash is the SHA-256 of the auth_req_id; a ping request keeps the id and the client's
            // notification token, which the ping carries. last_poll_ms starts at the answer's time.
            """
            CREATE TABLE ciba_requests (
                id TEXT PRIMARY KEY,
                auth_req_hash TEXT NOT NULL UNIQUE,
                client_id TEXT NOT NULL,
                publisher TEXT NOT NULL,
                user_id TEXT,
                scope TEXT NOT NULL,
                binding_message TEXT,
                authorization_details TEXT,
                txn TEXT NOT NULL,
                challenge TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                interval_seconds INTEGER NOT NULL,
                last_poll_ms BIGINT NOT NULL,
                status TEXT NOT NULL,
                decided_at BIGINT,
                device_id TEXT,
                amr TEXT,
                exchanged INTEGER NOT NULL DEFAULT 0,
                ping_auth_req_id TEXT,
                ping_token TEXT
            )
            """,
            "CREATE INDEX ciba_requests_user ON ciba_requests (user_id, client_id, created_at)",
            // One ping per decided ping request, queued in the decision's transaction; milliseconds as push_outbox.
            """
            CREATE TABLE ciba_pings (
                id TEXT PRIMARY KEY REFERENCES ciba_requests(id),
                endpoint TEXT NOT NULL,
                expires_at BIGINT NOT NULL,
                due_ms BIGINT NOT NULL,
                attempts INTEGER NOT NULL,
                claimed_by TEXT,
                claimed_until_ms BIGINT
            )
            """,
            "CREATE INDEX ciba_pings_due ON ciba_pings (due_ms)",
        ]
    )
}
