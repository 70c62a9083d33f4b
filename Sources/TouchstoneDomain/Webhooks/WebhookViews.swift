import Foundation

/// `POST /admin/v1/webhooks`: where to deliver, and which events.
package struct WebhookInput: Sendable, Equatable, Decodable {
    package var url: String
    package var events: [String]

    package init(url: String, events: [String]) {
        self.url = url
        self.events = events
    }
}

/// A new webhook with its secret: the only answer that shows the secret.
package struct CreatedWebhook: Sendable, Equatable, Codable {
    package var webhookId: String
    package var url: String
    package var events: [String]
    /// `whsec_` and the standard base64 of 32 random bytes.
    package var secret: String
}

/// A webhook as it is listed: never its secret.
package struct WebhookView: Sendable, Equatable, Codable {
    package var webhookId: String
    package var url: String
    package var events: [String]
    package var createdAt: Date
    /// When its endpoint answered 410 Gone: nothing is delivered to it since.
    package var disabledAt: Date?
}

/// `GET /admin/v1/webhooks`.
package struct WebhookList: Sendable, Equatable, Codable {
    package var webhooks: [WebhookView]
}
