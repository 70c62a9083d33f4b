import Foundation

/// Webhooks and their deliveries.
///
/// Events are queued by the stores that make the changes they report, in the same transaction (one delivery per
/// enabled webhook subscribed to the event); ``webhookOutbox`` is how they leave. Every method is atomic on its own.
package protocol WebhookStore: Sendable {
    func createWebhook(_ webhook: WebhookRecord) async throws
    /// Every webhook, oldest first.
    func webhooks() async throws -> [WebhookRecord]
    /// Deletes the webhook, its subscriptions and its queued deliveries.
    /// - Returns: `false` when no webhook has the id.
    func deleteWebhook(id: String) async throws -> Bool
    /// Disables the webhook (its endpoint answered 410 Gone) and drops its queued deliveries; no event is queued for
    /// it after.
    func disableWebhook(id: String, at: Date) async throws
    /// Queues a `webhook.test` event for the webhook, whatever it subscribes to, unless it is disabled.
    func queueTestEvent(webhookId: String, at: Date) async throws -> WebhookTestOutcome

    /// The webhook outbox. A claim returns only deliveries of enabled webhooks within a day of being queued; the
    /// others it deletes.
    var webhookOutbox: any OutboxQueue<QueuedWebhook> { get }
}

/// What asking for a webhook's test event found.
package enum WebhookTestOutcome: Sendable, Equatable {
    case queued
    /// Its endpoint answered 410 Gone: nothing is sent to it.
    case disabled
    case notFound
}
