import Foundation
import TouchstoneStorage

/// Where webhook deliveries are sent: their receivers (``WebhookClient``), or a stand-in in tests.
package protocol WebhookGateway: Sendable {
    /// One try of `webhook`, signed for `now` (its `webhook-timestamp`).
    func send(_ webhook: QueuedWebhook, at now: Date) async -> WebhookAnswer
}
