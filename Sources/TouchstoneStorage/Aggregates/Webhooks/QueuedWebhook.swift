import Foundation

/// One webhook delivery waiting in the outbox, claimed for sending: an event's body for one webhook, signed with that
/// webhook's secret.
package struct QueuedWebhook: OutboxMessage, Equatable {
    /// The event's id for this webhook (`msg_…`): the Standard Webhooks `webhook-id`, the same on every try.
    package var id: String
    package var webhookId: String
    package var url: String
    /// The secret's bytes (the base64 after `whsec_`, decoded): the HMAC-SHA256 key.
    package var secret: [UInt8]
    /// The event's type, as the body names it.
    package var type: String
    /// The body, exactly as it was written when the event was queued: every try sends these bytes.
    package var body: String
    /// When the event was queued.
    package var queuedAt: Date
    /// A day after ``queuedAt``: no try after it.
    package var expiresAt: Date
    /// Tries made before this one.
    package var attempts: Int

    package init(
        id: String, webhookId: String, url: String, secret: [UInt8], type: String, body: String, queuedAt: Date,
        expiresAt: Date, attempts: Int
    ) {
        self.id = id
        self.webhookId = webhookId
        self.url = url
        self.secret = secret
        self.type = type
        self.body = body
        self.queuedAt = queuedAt
        self.expiresAt = expiresAt
        self.attempts = attempts
    }
}
