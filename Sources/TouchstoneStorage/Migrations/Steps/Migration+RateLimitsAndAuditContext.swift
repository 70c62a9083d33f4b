extension Migration {
    /// Request counts per client address and endpoint, and the request and actor of each audit event.
    static let rateLimitsAndAuditContext = Migration(
        version: 6,
        name: "rate_limits_and_audit_context",
        statements: [
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
        ]
    )
}
