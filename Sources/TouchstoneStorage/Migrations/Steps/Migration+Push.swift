extension Migration {
    /// Push: apps' credentials for APNs and FCM, devices' registrations, and the outbox of pushes to send.
    static let push = Migration(
        version: 10,
        name: "push",
        statements: [
            // An app's APNs key and FCM service account, each as JSON; NULL: that provider is not set up.
            """
            CREATE TABLE push_credentials (
                client_id TEXT PRIMARY KEY REFERENCES apps(client_id),
                apns TEXT,
                fcm TEXT,
                updated_at BIGINT NOT NULL
            )
            """,
            // One registration per device, and one device per token.
            """
            CREATE TABLE push_registrations (
                device_id TEXT PRIMARY KEY REFERENCES devices(id),
                provider TEXT NOT NULL,
                token TEXT NOT NULL,
                topic TEXT,
                environment TEXT,
                registered_at BIGINT NOT NULL,
                UNIQUE (provider, token)
            )
            """,
            // One row per item and device it reaches, queued in the item's transaction (id: item id '/' device id).
            // queued_ms, due_ms and claimed_until_ms are milliseconds: retries back off from one second.
            """
            CREATE TABLE push_outbox (
                id TEXT PRIMARY KEY,
                device_id TEXT NOT NULL REFERENCES devices(id),
                kind TEXT NOT NULL,
                item_id TEXT NOT NULL,
                event TEXT,
                expires_at BIGINT NOT NULL,
                queued_ms BIGINT NOT NULL,
                due_ms BIGINT NOT NULL,
                attempts INTEGER NOT NULL,
                claimed_by TEXT,
                claimed_until_ms BIGINT
            )
            """,
            "CREATE INDEX push_outbox_due ON push_outbox (due_ms)",
            "CREATE INDEX push_outbox_device ON push_outbox (device_id, kind, queued_ms)",
        ]
    )
}
