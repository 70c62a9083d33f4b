import Foundation
import Logging
import TouchstoneCrypto
import TouchstoneStorage

/// What every domain service shares: the store, the clock, the settings and the server's keys.
package struct ServiceEnvironment: Sendable {
    package let store: any TouchstoneStore
    package let clock: any WallClock
    package let settings: ServerSettings
    package let hasher: PasswordHasher
    package let signer: TokenSigner
    package let logger: Logger
    package let metrics: ServerMetrics
    /// Begun when the server stops: long polls answer at once.
    package let shutdown = ShutdownNotice()
    /// Parsed device keys, shared by every copy of this environment.
    let deviceKeys = DeviceKeyCache()

    var auditor: Auditor { Auditor(store: store, clock: clock, logger: logger) }
    package var throttle: PasswordThrottle { PasswordThrottle(store: store, clock: clock) }
    var tokenRules: DeviceTokenRules { DeviceTokenRules(audience: settings.issuer) }

    /// The app with this client id, or 404 `app_not_found`.
    package func app(_ clientId: String) async throws -> AppRecord {
        guard let app = try await store.app(clientId: clientId) else { throw ProblemError.appNotFound }
        return app
    }

    /// The device whose session makes the request, if it is a device session (for the detail of a notice).
    func actingDevice(of identity: AccessIdentity) async throws -> DeviceRecord? {
        guard let deviceId = identity.deviceId else { return nil }
        return try await store.device(id: deviceId)
    }

    package init(
        store: any TouchstoneStore,
        clock: any WallClock,
        settings: ServerSettings,
        hasher: PasswordHasher,
        signer: TokenSigner,
        logger: Logger,
        metrics: ServerMetrics = ServerMetrics()
    ) {
        self.store = store
        self.clock = clock
        self.settings = settings
        self.hasher = hasher
        self.signer = signer
        self.logger = logger
        self.metrics = metrics
    }
}
