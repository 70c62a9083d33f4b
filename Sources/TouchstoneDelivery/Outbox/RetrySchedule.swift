import Foundation

/// When an outbox message's next try is due: exponential backoff from ``first``, doubling per try, at most ``cap``
/// apart, and later when the receiver asked for more (`Retry-After`); at most ``mostTries`` tries, and never at or after
/// the message's expiry.
package struct RetrySchedule: Sendable, Equatable {
    /// The wait before the second try.
    package let first: TimeInterval
    /// The longest wait between two tries; `nil`: none.
    package let cap: TimeInterval?
    /// Tries per message, the first included; `nil`: until the message expires.
    package let mostTries: Int?

    package init(first: TimeInterval, cap: TimeInterval? = nil, mostTries: Int? = nil) {
        self.first = first
        self.cap = cap
        self.mostTries = mostTries
    }

    /// The wait after `attempts` earlier tries and this one: `first · 2^attempts`, capped, or `retryAfter` if longer.
    package func wait(after attempts: Int, retryAfter: Duration?) -> TimeInterval {
        let backoff = first * pow(2, Double(min(attempts, 16)))
        let scheduled = cap.map { min(backoff, $0) } ?? backoff
        let asked = retryAfter.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0
        return max(scheduled, asked)
    }

    /// When the try after this one is due, or `nil` when the message is given up: no tries left, or due at or after
    /// `expiresAt`.
    /// - Parameter attempts: tries made before this one.
    package func nextTry(after attempts: Int, retryAfter: Duration?, now: Date, expiresAt: Date) -> Date? {
        if let mostTries, attempts + 1 >= mostTries { return nil }
        let dueAt = now.addingTimeInterval(wait(after: attempts, retryAfter: retryAfter))
        return dueAt < expiresAt ? dueAt : nil
    }
}
