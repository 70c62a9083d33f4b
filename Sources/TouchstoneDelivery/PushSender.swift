import Foundation
import Logging
import Metrics
import TouchstoneStorage

/// The outbox sender of pushes (``PushCourier``).
package typealias PushSender = OutboxSender<PushCourier>

extension OutboxSender where Courier == PushCourier {
    /// The sender of `store`'s push outbox through `gateway`.
    package init(
        store: any PushStore, gateway: any PushGateway, now: @escaping @Sendable () -> Date, logger: Logger,
        metrics: any MetricsFactory, after: AsyncStream<Void>, pollInterval: Duration = .milliseconds(250),
        batchSize: Int = 32
    ) {
        self.init(
            queue: store.pushOutbox,
            courier: PushCourier(store: store, gateway: gateway, now: now, logger: logger, metrics: metrics), now: now,
            logger: logger, after: after, pollInterval: pollInterval, batchSize: batchSize)
    }
}
