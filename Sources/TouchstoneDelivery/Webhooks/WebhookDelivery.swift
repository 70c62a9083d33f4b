import Foundation
import Logging
import Metrics
import ServiceLifecycle
import TouchstoneProtocol
import TouchstoneStorage

/// The outbox sender of webhook deliveries.
package typealias WebhookSender = OutboxSender<WebhookCourier>

/// The server's webhook delivery as one `Service`: a ``WebhookClient`` and the outbox's ``WebhookSender`` over it.
package struct WebhookDelivery: Service {
    let store: any WebhookStore
    let resolver: any HostResolver
    let now: @Sendable () -> Date
    let logger: Logger
    let metrics: any MetricsFactory
    /// Finishes once the database is migrated.
    let after: AsyncStream<Void>

    /// - Parameter resolver: finds the addresses of the receivers' hosts (the system's; a stand-in in tests).
    package init(
        store: any WebhookStore, resolver: any HostResolver = SystemHostResolver(), now: @escaping @Sendable () -> Date,
        logger: Logger, metrics: any MetricsFactory, after: AsyncStream<Void>
    ) {
        self.store = store
        self.resolver = resolver
        self.now = now
        self.logger = logger
        self.metrics = metrics
        self.after = after
    }

    package func run() async throws {
        let courier = WebhookCourier(
            store: store, gateway: try WebhookClient(resolver: resolver), now: now, logger: logger, metrics: metrics)
        try await WebhookSender(queue: store.webhookOutbox, courier: courier, now: now, logger: logger, after: after).run()
    }
}
