import Foundation
import Logging
import Metrics
import TouchstoneStorage

/// Delivers the CIBA ping outbox (rows queued in the transaction of a ping request's decision) for an
/// ``OutboxSender``: retries 5xx, 429 and no answer with exponential backoff from one second, as pushes are, until the
/// request expires; any other answer is given up.
package struct PingCourier: OutboxCourier {
    let gateway: any PingGateway
    let logger: Logger

    package let kind = "ciba ping"
    package let schedule = RetrySchedule(first: 1)
    package var queued: Gauge? { nil }

    package init(gateway: any PingGateway, logger: Logger) {
        self.gateway = gateway
        self.logger = logger
    }

    package func attempt(_ ping: QueuedPing) async throws -> OutboxTry {
        switch await gateway.ping(ping) {
        case .delivered:
            logger.debug("ciba ping delivered", metadata: ["request": "\(ping.id)"])
            return .finished
        case .retry(let reason):
            return .retry(reason: reason, retryAfter: nil)
        case .failed(let reason):
            logger.warning(
                "ciba ping: refused by the client's endpoint; given up",
                metadata: ["request": "\(ping.id)", "reason": "\(reason)"])
            return .finished
        }
    }

    package func retrying(_ ping: QueuedPing, reason: String, at dueAt: Date) {}

    package func givenUp(_ ping: QueuedPing, reason: String) {
        logger.warning(
            "ciba ping: given up, the request expires first", metadata: ["request": "\(ping.id)", "reason": "\(reason)"])
    }
}
