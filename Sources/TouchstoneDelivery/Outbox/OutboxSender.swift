import Foundation
import Logging
import ServiceLifecycle
import TouchstoneStorage

/// Sends one outbox: a `Service` of the server's `ServiceGroup` that claims due messages through the store, has its
/// ``OutboxCourier`` try each (concurrently, a batch at a time), and finishes each, puts it back on the courier's
/// ``RetrySchedule`` or gives it up.
///
/// Every instance of a server runs one per outbox; the store's claim lets exactly one of them send a message, and a
/// claim lapses after ``claimLease`` so that a message claimed by an instance that died is sent by another. It claims
/// nothing before `after` finishes (the database is migrated). On graceful shutdown it claims nothing more and finishes
/// the tries in flight (each ends within its client's timeout).
package struct OutboxSender<Courier: OutboxCourier>: Service {
    /// How long a claim holds: a message whose sender died is claimed again after it.
    package static var claimLease: TimeInterval { 30 }

    let queue: any OutboxQueue<Courier.Message>
    let courier: Courier
    let now: @Sendable () -> Date
    let logger: Logger
    /// Finishes once the database is migrated: the services of a group start together.
    let after: AsyncStream<Void>
    /// Names this sender's claims; unique per process.
    let claimant: String
    /// How often an idle sender looks for due messages.
    let pollInterval: Duration
    /// Messages claimed at a time, and tried concurrently.
    let batchSize: Int

    package init(
        queue: any OutboxQueue<Courier.Message>, courier: Courier, now: @escaping @Sendable () -> Date, logger: Logger,
        after: AsyncStream<Void>, pollInterval: Duration = .milliseconds(250), batchSize: Int = 32
    ) {
        self.queue = queue
        self.courier = courier
        self.now = now
        self.logger = logger
        self.after = after
        self.claimant = "sender-" + UUID().uuidString.lowercased()
        self.pollInterval = pollInterval
        self.batchSize = batchSize
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in after {}
        }
        // When the queue was last counted for the gauge: at most once a second while idle.
        var countedAt: ContinuousClock.Instant?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let claimed = await claimDue()
            if let gauge = courier.queued, !claimed.isEmpty || countedAt.map({ $0.duration(to: .now) >= .seconds(1) }) ?? true {
                do {
                    gauge.record(try await queue.queuedCount())
                    countedAt = .now
                } catch {
                    logger.warning("\(courier.kind) outbox: counting failed", metadata: ["error": "\(error)"])
                }
            }
            if claimed.isEmpty {
                do {
                    try await cancelWhenGracefulShutdown { try await Task.sleep(for: pollInterval) }
                } catch {
                    return
                }
                continue
            }
            await deliver(claimed)
        }
    }

    /// Claims the due messages and tries each once, concurrently, as one turn of ``run()`` does.
    /// - Returns: how many were claimed.
    @discardableResult
    package func sendDue() async throws -> Int {
        let claimed = await claimDue()
        await deliver(claimed)
        return claimed.count
    }

    /// One try of one claimed message, and what the outbox does with it.
    func deliver(_ message: Courier.Message) async {
        do {
            switch try await courier.attempt(message) {
            case .finished:
                try await queue.finish(id: message.id, claimant: claimant)
            case .retry(let reason, let retryAfter):
                if let dueAt = courier.schedule.nextTry(
                    after: message.attempts, retryAfter: retryAfter, now: now(), expiresAt: message.expiresAt)
                {
                    courier.retrying(message, reason: reason, at: dueAt)
                    try await queue.retry(id: message.id, claimant: claimant, dueAt: dueAt)
                } else {
                    courier.givenUp(message, reason: reason)
                    try await queue.finish(id: message.id, claimant: claimant)
                }
            }
        } catch {
            // The claim lapses and the message is tried again.
            logger.warning(
                "\(courier.kind) outbox: recording a try failed", metadata: ["id": "\(message.id)", "error": "\(error)"])
        }
    }

    /// The due messages, claimed for ``claimLease``; none when claiming failed (logged).
    private func claimDue() async -> [Courier.Message] {
        do {
            let now = now()
            return try await queue.claimDue(
                claimant: claimant, now: now, leaseUntil: now.addingTimeInterval(Self.claimLease), limit: batchSize)
        } catch {
            logger.warning("\(courier.kind) outbox: claiming failed", metadata: ["error": "\(error)"])
            return []
        }
    }

    private func deliver(_ claimed: [Courier.Message]) async {
        await withTaskGroup(of: Void.self) { group in
            for message in claimed {
                group.addTask { await deliver(message) }
            }
        }
    }
}
