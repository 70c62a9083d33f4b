import Foundation
import TouchstoneProtocol

/// A webhook: where events go, which events, and the secret that signs them.
package struct WebhookRecord: Sendable, Equatable {
    package var id: String
    package var url: String
    /// The events it subscribes to, without repeats.
    package var events: [WebhookEvent]
    /// Kept as shown once at creation: delivery signs with its bytes.
    package var secret: WebhookSecret
    package var createdAt: Date
    /// When a delivery was answered 410 Gone: nothing more is sent to it.
    package var disabledAt: Date?

    package init(
        id: String, url: String, events: [WebhookEvent], secret: WebhookSecret, createdAt: Date, disabledAt: Date? = nil
    ) {
        self.id = id
        self.url = url
        self.events = events
        self.secret = secret
        self.createdAt = createdAt
        self.disabledAt = disabledAt
    }
}
