extension Migration {
    /// Webhooks: where events go and which, the secret that signs them, and the outbox of their deliveries.
    static let webhooks = Migration(
        version: 15,
        name: "webhooks",
        statements: [
            // secret: the whsec_ text shown once at creation, kept as it is (delivery signs with it, as the server's
            // signing keys and the apps' push keys are kept). disabled_at: set when the endpoint answered 410 Gone.
            """
            CREATE TABLE webhooks (
                id TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                secret TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                disabled_at BIGINT
            )
            """,
            // The events each webhook subscribes to, a row each: an event fans out to its webhooks through the key.
            """
            CREATE TABLE webhook_events (
                event TEXT NOT NULL,
                webhook_id TEXT NOT NULL REFERENCES webhooks(id),
                PRIMARY KEY (event, webhook_id)
            )
            """,
            // One row per event and webhook, queued in the transaction of what the event reports; id is the event's
            // webhook-id (msg_…), body the exact text every try sends. Milliseconds as push_outbox; claimed the same way.
            // No foreign key on webhook_id: deleting a webhook never waits for, or fails, the transaction of an event
            // (a delivery of a webhook deleted meanwhile is dropped when claimed).
            """
            CREATE TABLE webhook_deliveries (
                id TEXT PRIMARY KEY,
                webhook_id TEXT NOT NULL,
                type TEXT NOT NULL,
                body TEXT NOT NULL,
                queued_ms BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                due_ms BIGINT NOT NULL,
                attempts INTEGER NOT NULL,
                claimed_by TEXT,
                claimed_until_ms BIGINT
            )
            """,
            "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (due_ms)",
            "CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id)",
        ]
    )
}
