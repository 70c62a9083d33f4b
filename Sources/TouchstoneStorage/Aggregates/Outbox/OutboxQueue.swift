import Foundation

/// A message waiting in an outbox, claimed for sending.
package protocol OutboxMessage: Sendable {
    /// Names the message in its outbox: finishing and retrying take it.
    var id: String { get }
    /// Tries made before this one.
    var attempts: Int { get }
    /// No try at or after it: a retry that would come this late is given up.
    var expiresAt: Date { get }
}

/// One outbox: messages queued in the transaction of what they report, claimed by one sender at a time, then finished
/// or put back. Pushes, CIBA pings and webhook deliveries each have one, claimed the same way.
///
/// A claim holds until its lease ends: a message whose sender died is claimed again after it, and the sender that
/// claimed it can then no longer finish or retry it. Every method is atomic on its own.
package protocol OutboxQueue<Message>: Sendable {
    associatedtype Message: OutboxMessage

    /// Claims up to `limit` due messages for `claimant` until `leaseUntil`: unclaimed or whose claim lapsed, oldest
    /// due first. In one conditional statement (`FOR UPDATE SKIP LOCKED` on PostgreSQL): two senders never claim the
    /// same message. Claimed messages that are no longer wanted (expired, or what they are about is gone) are deleted
    /// meanwhile and not returned.
    func claimDue(claimant: String, now: Date, leaseUntil: Date, limit: Int) async throws -> [Message]
    /// Deletes a message that was delivered or given up, while `claimant` still holds it.
    func finish(id: String, claimant: String) async throws
    /// Puts a message back to be tried again at `dueAt`, counting the try, while `claimant` still holds it.
    func retry(id: String, claimant: String, dueAt: Date) async throws
    /// Messages queued and not finished, retries waiting included.
    func queuedCount() async throws -> Int
}
