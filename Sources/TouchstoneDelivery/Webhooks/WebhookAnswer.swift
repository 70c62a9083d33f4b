/// What a webhook's receiver answered one try, as the outbox acts on it.
package enum WebhookAnswer: Sendable, Equatable {
    /// A 2xx: delivered.
    case delivered
    /// 410: the receiver wants no more deliveries: this one ends and the webhook is disabled.
    case gone
    /// Any other answer, a redirect among them, no answer in time, no connection, or an address refused: tried again,
    /// not before `retryAfter` when the receiver named one. `reason` never names the URL, a header or the secret.
    case retry(reason: String, retryAfter: Duration?)

    /// The answer a status means, with its `Retry-After`.
    package init(status: Int, retryAfter: Duration?) {
        switch status {
        case 200..<300: self = .delivered
        case 410: self = .gone
        default: self = .retry(reason: "HTTP \(status)", retryAfter: retryAfter)
        }
    }
}
