import Foundation
import Logging
import ServiceLifecycle
import TouchstoneStorage

/// Sends the CIBA ping outbox (rows queued in the transaction of a ping request's decision): a `Service` that claims
/// due pings through the store and tries each, retrying 5xx, 429 and no answer with exponential backoff from one
/// second, as pushes are, until the request expires. One instance sends each ping; a claim lapses after
/// ``PushSender/claimLease``. On graceful shutdown it claims nothing more and finishes the pings in flight.
package struct PingSender: Service {
    let store: any CIBAStore
    let gateway: any PingGateway
    let now: @Sendable () -> Date
    let logger: Logger
    /// Finishes once the database is migrated.
    let after: AsyncStream<Void>
    let claimant: String
    let pollInterval: Duration
    let batchSize: Int

    package init(
        store: any CIBAStore, gateway: any PingGateway, now: @escaping @Sendable () -> Date, logger: Logger,
        after: AsyncStream<Void>, pollInterval: Duration = .milliseconds(250), batchSize: Int = 32
    ) {
        self.store = store
        self.gateway = gateway
        self.now = now
        self.logger = logger
        self.after = after
        self.claimant = "pinger-" + UUID().uuidString.lowercased()
        self.pollInterval = pollInterval
        self.batchSize = batchSize
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in after {}
        }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            if try await sendDue() == 0 {
                do {
                    try await cancelWhenGracefulShutdown { try await Task.sleep(for: pollInterval) }
                } catch {
                    return
                }
            }
        }
    }

    /// Claims the due pings and tries each once, concurrently.
    /// - Returns: how many were claimed.
    @discardableResult
    package func sendDue() async throws -> Int {
        let claimed: [QueuedPing]
        do {
            let now = now()
            claimed = try await store.pingOutbox.claimDue(
                claimant: claimant, now: now, leaseUntil: now.addingTimeInterval(PushSender.claimLease),
                limit: batchSize)
        } catch {
            logger.warning("ping outbox: claiming failed", metadata: ["error": "\(error)"])
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            for ping in claimed {
                group.addTask { await deliver(ping) }
            }
        }
        return claimed.count
    }

    /// One try of one claimed ping, and what the outbox does with its answer.
    func deliver(_ ping: QueuedPing) async {
        let answer = await gateway.ping(ping)
        do {
            switch answer {
            case .delivered:
                logger.debug("ciba ping delivered", metadata: ["request": "\(ping.id)"])
                try await store.pingOutbox.finish(id: ping.id, claimant: claimant)
            case .retry(let reason):
                let dueAt = now().addingTimeInterval(PushSender.firstBackoff * pow(2, Double(min(ping.attempts, 16))))
                if dueAt >= ping.expiresAt {
                    logger.warning(
                        "ciba ping: given up, the request expires first",
                        metadata: ["request": "\(ping.id)", "reason": "\(reason)"])
                    try await store.pingOutbox.finish(id: ping.id, claimant: claimant)
                } else {
                    try await store.pingOutbox.retry(id: ping.id, claimant: claimant, dueAt: dueAt)
                }
            case .failed(let reason):
                logger.warning(
                    "ciba ping: refused by the client's endpoint; given up",
                    metadata: ["request": "\(ping.id)", "reason": "\(reason)"])
                try await store.pingOutbox.finish(id: ping.id, claimant: claimant)
            }
        } catch {
            // The claim lapses and the ping is tried again.
            logger.warning("ping outbox: recording a try failed", metadata: ["request": "\(ping.id)", "error": "\(error)"])
        }
    }
}
