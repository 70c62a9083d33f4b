import Foundation
import Logging
import TouchstoneCrypto
import TouchstoneStorage

/// What the composition root builds the services from (``Services/init(environment:)``): the store, the clock, the
/// random source, the settings and the server's keys. No service holds it: each is given the parts it uses.
package struct ServiceEnvironment: Sendable {
    package let store: any TouchstoneStore
    package let clock: any WallClock
    package let random: any RandomSource
    package let settings: ServerSettings
    package let hasher: PasswordHasher
    package let signer: TokenSigner
    package let logger: Logger
    package let metrics: ServerMetrics
    /// Begun when the server stops: long polls answer at once.
    package let shutdown = ShutdownNotice()

    /// The app with this client id, or 404 `app_not_found`.
    package func app(_ clientId: String) async throws -> AppRecord {
        try await store.existingApp(clientId)
    }

    package init(
        store: any TouchstoneStore,
        clock: any WallClock,
        random: any RandomSource = SystemRandom(),
        settings: ServerSettings,
        hasher: PasswordHasher,
        signer: TokenSigner,
        logger: Logger,
        metrics: ServerMetrics = ServerMetrics()
    ) {
        self.store = store
        self.clock = clock
        self.random = random
        self.settings = settings
        self.hasher = hasher
        self.signer = signer
        self.logger = logger
        self.metrics = metrics
    }
}
