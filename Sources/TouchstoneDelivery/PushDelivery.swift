import Foundation
import Logging
import Metrics
import ServiceLifecycle
import TouchstoneStorage

/// The server's push delivery as one `Service`: the push services' clients (``PushClients``) and the outbox's
/// ``PushSender`` over them. The clients live exactly as long as ``run()``: made when it starts, shut down after the
/// sender has stopped (on graceful shutdown, once the pushes in flight are finished).
package struct PushDelivery: Service {
    let endpoints: PushEndpoints
    let store: any PushStore
    let now: @Sendable () -> Date
    let logger: Logger
    let metrics: any MetricsFactory
    /// Finishes once the database is migrated.
    let after: AsyncStream<Void>

    package init(
        endpoints: PushEndpoints, store: any PushStore, now: @escaping @Sendable () -> Date, logger: Logger,
        metrics: any MetricsFactory, after: AsyncStream<Void>
    ) {
        self.endpoints = endpoints
        self.store = store
        self.now = now
        self.logger = logger
        self.metrics = metrics
        self.after = after
    }

    package func run() async throws {
        let clients = PushClients(endpoints: endpoints, logger: logger, clock: now)
        let sender = PushSender(
            store: store, gateway: clients, now: now, logger: logger, metrics: metrics, after: after)
        do {
            try await sender.run()
        } catch {
            try? await clients.shutdown()
            throw error
        }
        try await clients.shutdown()
    }
}
