import Foundation
import Logging
import TouchstoneStorage

/// The outbox sender of CIBA pings (``PingCourier``).
package typealias PingSender = OutboxSender<PingCourier>

extension OutboxSender where Courier == PingCourier {
    /// The sender of `store`'s ping outbox through `gateway`.
    package init(
        store: any CIBAStore, gateway: any PingGateway, now: @escaping @Sendable () -> Date, logger: Logger,
        after: AsyncStream<Void>, pollInterval: Duration = .milliseconds(250), batchSize: Int = 32
    ) {
        self.init(
            queue: store.pingOutbox, courier: PingCourier(gateway: gateway, logger: logger), now: now, logger: logger,
            after: after, pollInterval: pollInterval, batchSize: batchSize)
    }
}
