import Foundation
import Logging
import Metrics
import TouchstoneStorage

/// Delivers the webhook outbox for an ``OutboxSender``: each try signed for its own time; a 2xx ends it, a 410 ends it
/// and disables the webhook, anything else is tried again after 5 s (or the receiver's `Retry-After`, if longer), then
/// doubling, at most an hour apart, until 24 hours after the event was queued (the delivery's `expiresAt`).
package struct WebhookCourier: OutboxCourier {
    let store: any WebhookStore
    let gateway: any WebhookGateway
    let now: @Sendable () -> Date
    let logger: Logger
    let metrics: WebhookMetrics

    package let kind = "webhook"
    package let schedule = RetrySchedule(first: 5, cap: 3600)
    package var queued: Gauge? { metrics.queued }

    package init(
        store: any WebhookStore, gateway: any WebhookGateway, now: @escaping @Sendable () -> Date, logger: Logger,
        metrics: any MetricsFactory
    ) {
        self.store = store
        self.gateway = gateway
        self.now = now
        self.logger = logger
        self.metrics = WebhookMetrics(factory: metrics)
    }

    package func attempt(_ webhook: QueuedWebhook) async throws -> OutboxTry {
        switch await gateway.send(webhook, at: now()) {
        case .delivered:
            metrics.count(.delivered)
            logger.debug("webhook delivered", metadata: metadata(webhook))
            return .finished
        case .gone:
            metrics.count(.gone)
            logger.notice("webhook: the receiver answered 410; the webhook is disabled", metadata: metadata(webhook))
            try await store.disableWebhook(id: webhook.webhookId, at: now())
            return .finished
        case .retry(let reason, let retryAfter):
            return .retry(reason: reason, retryAfter: retryAfter)
        }
    }

    package func retrying(_ webhook: QueuedWebhook, reason: String, at dueAt: Date) {
        metrics.count(.retried)
        logger.info(
            "webhook to be retried",
            metadata: metadata(webhook).merging(["reason": "\(reason)", "due_at": "\(dueAt)"]) { $1 })
    }

    package func givenUp(_ webhook: QueuedWebhook, reason: String) {
        metrics.count(.failed)
        logger.warning(
            "webhook: given up after \(webhook.attempts + 1) tries, 24 hours after it was queued",
            metadata: metadata(webhook).merging(["reason": "\(reason)"]) { $1 })
    }

    /// What names a delivery in the log: never its URL, secret or body.
    private func metadata(_ webhook: QueuedWebhook) -> Logger.Metadata {
        ["webhook_id": "\(webhook.webhookId)", "event_id": "\(webhook.id)", "type": "\(webhook.type)"]
    }
}
