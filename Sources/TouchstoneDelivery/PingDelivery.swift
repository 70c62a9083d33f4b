import Foundation
import Logging
import ServiceLifecycle
import TouchstoneStorage

/// The server's CIBA pings as one `Service`: a ``PingClient`` made when ``run()`` starts and shut down after its
/// ``PingSender`` has stopped.
package struct PingDelivery: Service {
    let store: any CIBAStore
    let now: @Sendable () -> Date
    let logger: Logger
    /// Finishes once the database is migrated.
    let after: AsyncStream<Void>

    package init(store: any CIBAStore, now: @escaping @Sendable () -> Date, logger: Logger, after: AsyncStream<Void>) {
        self.store = store
        self.now = now
        self.logger = logger
        self.after = after
    }

    package func run() async throws {
        let client = PingClient()
        do {
            try await PingSender(store: store, gateway: client, now: now, logger: logger, after: after).run()
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}
