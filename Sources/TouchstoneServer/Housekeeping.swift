import Logging
import ServiceLifecycle
import TouchstoneDomain
import TouchstoneStorage

/// Deletes expired challenges, used-token digests, WebAuthn ceremonies, security notices and stale throttle rows once a
/// minute.
struct Housekeeping: Service {
    let store: any HousekeepingStore
    let clock: any WallClock
    let logger: Logger
    /// Finishes once the database is migrated: the services of a group start together.
    let after: AsyncStream<Void>

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in after {}
        }
        while !Task.isShuttingDownGracefully {
            do {
                try await store.purgeExpired(now: clock.now())
            } catch {
                logger.warning("housekeeping failed", metadata: ["error": .string("\(error)")])
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(60)) }
            } catch {
                return
            }
        }
    }
}
