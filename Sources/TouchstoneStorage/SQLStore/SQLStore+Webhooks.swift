import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    /// How long an event's delivery is tried.
    static let webhookDeliveryLifetime: TimeInterval = 86_400

    // MARK: Queuing, in the transaction of what the event reports

    /// Queues `type` for every enabled webhook subscribed to it, in one statement inside the caller's transaction: its
    /// body written once, here, and a `webhook-id` of its own for each webhook.
    static func queueWebhookEvent(
        _ type: WebhookEvent, _ data: WebhookEventData, at now: Date, in database: any SQLDatabase
    ) async throws {
        try await queueWebhookEvent(
            type, data, at: now,
            to: """
                EXISTS (SELECT 1 FROM webhook_events e WHERE e.webhook_id = w.id AND e.event = \(bind: type.rawValue))
                """,
            in: database)
    }

    /// Queues `type` for the enabled webhooks `recipients` selects of `webhooks w`.
    /// - Returns: how many deliveries were queued.
    @discardableResult
    private static func queueWebhookEvent(
        _ type: WebhookEvent, _ data: WebhookEventData, at now: Date, to recipients: SQLQueryString,
        in database: any SQLDatabase
    ) async throws -> Int {
        let body = WebhookEventBody(type: type, timestamp: now, data: data).text
        // One random part per event, the webhook's id per webhook: fixed at queuing, so every retry keeps it.
        let eventId = "msg_" + RecordID.random().replacingOccurrences(of: "-", with: "") + "_"
        let queued = now.storedMilliseconds
        let expiresAt = now.addingTimeInterval(webhookDeliveryLifetime).storedSeconds
        return try await database.raw(
            """
            INSERT INTO webhook_deliveries (id, webhook_id, type, body, queued_ms, expires_at, due_ms, attempts)
            SELECT \(bind: eventId) || w.id, w.id, \(bind: type.rawValue), \(bind: body), \(bind: queued),
                \(bind: expiresAt), \(bind: queued), 0
            FROM webhooks w
            """ + " WHERE w.disabled_at IS NULL AND " + recipients + " RETURNING id"
        ).all().count
    }

    /// Queues a decision's event (`confirmation.decided`, `ciba.decided`) from the decided row's `user_id` and
    /// `client_id`, inside the caller's transaction.
    static func queueDecisionEvent(
        _ type: WebhookEvent, _ decided: any SQLRow, status: ItemStatus, by commit: DecisionCommit,
        in database: any SQLDatabase
    ) async throws {
        // A request for an unknown user is never delivered, so never decided; its row has no user.
        guard let userId = try decided.optionalString("user_id") else { return }
        let decision: WebhookDecision? =
            switch status {
            case .approved: .approve
            case .denied: .deny
            case .pending, .suppressed: nil
            }
        let data = WebhookEventData(
            userId: userId, deviceId: commit.deviceId, clientId: try decided.string("client_id"), decision: decision)
        try await queueWebhookEvent(type, data, at: commit.now, in: database)
    }

    /// The app a device enrolled under, for an event about it; `nil` without one.
    static func clientId(ofDevice deviceId: String?, in database: any SQLDatabase) async throws -> String? {
        guard let deviceId else { return nil }
        return try await database.raw("SELECT client_id FROM devices WHERE id = \(bind: deviceId)").first()?
            .string("client_id")
    }

    // MARK: Webhooks

    package func createWebhook(_ webhook: WebhookRecord) async throws {
        try await provider.transaction { database in
            try await database.raw(
                """
                INSERT INTO webhooks (id, url, secret, created_at, disabled_at)
                VALUES (\(bind: webhook.id), \(bind: webhook.url), \(bind: webhook.secret.text),
                    \(bind: webhook.createdAt.storedSeconds), \(bind: webhook.disabledAt?.storedSeconds))
                """
            ).run()
            for event in webhook.events {
                try await database.raw(
                    "INSERT INTO webhook_events (event, webhook_id) VALUES (\(bind: event.rawValue), \(bind: webhook.id))"
                ).run()
            }
        }
    }

    package func webhooks() async throws -> [WebhookRecord] {
        try await provider.read { database in
            var events: [String: Set<WebhookEvent>] = [:]
            for row in try await database.raw("SELECT webhook_id, event FROM webhook_events").all() {
                events[try row.string("webhook_id"), default: []].insert(WebhookEvent(rawValue: try row.string("event")))
            }
            return try await database.raw(
                "SELECT id, url, secret, created_at, disabled_at FROM webhooks ORDER BY created_at, id"
            ).all().map { row in
                let id = try row.string("id")
                let subscribed = events[id] ?? []
                return WebhookRecord(
                    id: id, url: try row.string("url"),
                    events: WebhookEvent.subscribable.filter(subscribed.contains), secret: try Self.webhookSecret(row),
                    createdAt: try row.date("created_at"), disabledAt: try row.optionalDate("disabled_at"))
            }
        }
    }

    package func deleteWebhook(id: String) async throws -> Bool {
        try await provider.transaction { database in
            // A delivery queued meanwhile by another transaction is dropped at its claim: its webhook is gone.
            try await database.raw("DELETE FROM webhook_deliveries WHERE webhook_id = \(bind: id)").run()
            try await database.raw("DELETE FROM webhook_events WHERE webhook_id = \(bind: id)").run()
            return try await database.raw("DELETE FROM webhooks WHERE id = \(bind: id) RETURNING id").first() != nil
        }
    }

    package func disableWebhook(id: String, at: Date) async throws {
        try await provider.transaction { database in
            try await database.raw(
                "UPDATE webhooks SET disabled_at = \(bind: at.storedSeconds) WHERE id = \(bind: id) AND disabled_at IS NULL"
            ).run()
            try await database.raw("DELETE FROM webhook_deliveries WHERE webhook_id = \(bind: id)").run()
        }
    }

    package func queueTestEvent(webhookId: String, at: Date) async throws -> WebhookTestOutcome {
        try await provider.transaction { database in
            let queued = try await Self.queueWebhookEvent(
                .test, WebhookEventData(userId: nil), at: at, to: "w.id = \(bind: webhookId)", in: database)
            if queued > 0 { return .queued }
            let exists = try await database.raw("SELECT id FROM webhooks WHERE id = \(bind: webhookId)").first() != nil
            return exists ? .disabled : .notFound
        }
    }

    // MARK: The outbox

    package var webhookOutbox: any OutboxQueue<QueuedWebhook> {
        SQLOutbox(provider: provider, table: "webhook_deliveries", wanted: Self.wantedWebhookDeliveries)
    }

    /// The claimed deliveries still wanted: of an enabled webhook, within a day of being queued.
    private static func wantedWebhookDeliveries(_ claimed: [String], at now: Date, in database: any SQLDatabase)
        async throws -> [QueuedWebhook]
    {
        try await database.raw(
            """
            SELECT d.id, d.webhook_id, d.type, d.body, d.queued_ms, d.expires_at, d.attempts, w.url, w.secret
            FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.disabled_at IS NULL
            WHERE d.id IN (\(binds: claimed)) AND d.expires_at > \(bind: now.storedSeconds)
            ORDER BY d.queued_ms, d.id
            """
        ).all().map { row in
            QueuedWebhook(
                id: try row.string("id"), webhookId: try row.string("webhook_id"), url: try row.string("url"),
                secret: try webhookSecret(row).bytes,
                type: try row.string("type"), body: try row.string("body"),
                queuedAt: Date(storedMilliseconds: Int64(try row.int("queued_ms"))), expiresAt: try row.date("expires_at"),
                attempts: try row.int("attempts"))
        }
    }

    /// The `secret` column's text, read back.
    private static func webhookSecret(_ row: any SQLRow) throws -> WebhookSecret {
        guard let secret = WebhookSecret(text: try row.string("secret")) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a webhook secret"))
        }
        return secret
    }
}
