import Foundation
import Metrics
import TouchstoneStorage

/// Delivers one kind of outbox message — a push, a CIBA ping, a webhook — for an ``OutboxSender``: the sender claims,
/// schedules, finishes and puts back; the courier tries, acts on the answer, counts and logs.
package protocol OutboxCourier: Sendable {
    associatedtype Message: OutboxMessage

    /// Names the kind in the sender's log lines: `push`, `ciba ping`, `webhook`.
    var kind: String { get }
    /// When a message not delivered is tried again, and when it is given up.
    var schedule: RetrySchedule { get }
    /// Messages queued and not finished, set by the sender when it claims and at most once a second while idle; `nil`
    /// when the kind reports none.
    var queued: Gauge? { get }

    /// One try of `message`, with whatever its answer changes besides the message itself (a registration removed, a
    /// webhook disabled), counted and logged.
    /// - Throws: when reading what the try needs or recording its answer failed: the claim lapses and the message is
    ///   tried again.
    func attempt(_ message: Message) async throws -> OutboxTry
    /// Counts and logs a message put back to be tried again at `dueAt`.
    func retrying(_ message: Message, reason: String, at dueAt: Date)
    /// Counts and logs a message given up: no try left before it expires.
    func givenUp(_ message: Message, reason: String)
}
