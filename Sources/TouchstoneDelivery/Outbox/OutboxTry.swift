/// What one try of an outbox message came to, as its courier tells the ``OutboxSender``.
package enum OutboxTry: Sendable, Equatable {
    /// Delivered, or ended by the answer (a device token the service no longer knows, a webhook gone, a refusal): the
    /// message is finished.
    case finished
    /// Not delivered: tried again on the courier's ``RetrySchedule`` (not before `retryAfter` when the receiver named
    /// one), or given up when that comes too late. `reason` is logged: it never holds a secret, a token or a URL.
    case retry(reason: String, retryAfter: Duration?)
}
