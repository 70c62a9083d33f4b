import Logging
import TouchstoneDomain
import TouchstoneStorage

/// `touchstone admin` on the database: opens it for one command and gives the command the domain's admin services,
/// the same the admin API calls; a running server sees the changes.
package enum TouchstoneAdmin {
    /// Opens and migrates the database for `body`, then closes it; an empty database gets the demo app, as `serve`
    /// would give it.
    /// - Parameter random: where secrets and ids come from; only tests pass another than the system's.
    package static func with<T>(
        database: DatabaseLocation, clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom(),
        logger: Logger, _ body: (AdminServices) async throws -> T
    ) async throws -> T {
        let store = SQLStore(
            provider: try await TouchstoneRuntime.openDatabase(database, bounds: DatabaseBounds(), logger: logger))
        return try await store.provider.withRunning {
            try await store.migrate()
            try await store.createDemoAppIfEmpty(.demo, at: clock.now())
            return try await body(AdminServices(store: store, clock: clock, random: random))
        }
    }
}
