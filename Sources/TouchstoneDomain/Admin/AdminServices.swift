import Foundation
import TouchstoneStorage

/// The administrators' operations, by area; `touchstone admin` and the admin API both call these, so each rule (a
/// policy's ranges, what a revocation ends and notifies) is in one place.
///
/// Every change is audited as done by the ``AdminCaller`` it is given, after the change and outside its transaction
/// (``AdminAudit``): a failed audit write fails the call, so the administrator is told and no change goes unrecorded
/// silently. Writing the event inside each change's transaction would need every store operation to take one, for
/// no gain an administrator can see: the change is the administrator's own, and a retry after a failed audit is safe.
package struct AdminServices: Sendable {
    package let apps: AdminAppService
    package let users: AdminUserService
    package let audit: AdminAuditService
    package let tokens: AdminTokenService
    package let signingKeys: AdminSigningKeyService

    /// - Parameter random: where tokens, secrets and ids come from (``SystemRandom`` in a server or the CLI).
    package init(store: any TouchstoneStore, clock: any WallClock, random: any RandomSource) {
        let audit = AdminAudit(store: store, clock: clock)
        apps = AdminAppService(store: store, clock: clock, random: random, audit: audit)
        users = AdminUserService(
            store: store, clock: clock, audit: audit, revocation: DeviceRevocation(store: store, clock: clock))
        self.audit = AdminAuditService(store: store)
        tokens = AdminTokenService(store: store, clock: clock, random: random, audit: audit)
        signingKeys = AdminSigningKeyService(store: store, clock: clock, audit: audit)
    }
}

/// The server's token-signing keys, for administrators (`admin signing-key rotate`).
package struct AdminSigningKeyService: Sendable {
    let store: any TouchstoneStore
    let clock: any WallClock
    let audit: AdminAudit

    /// Publishes a new signing key now; servers sign with it ten minutes later.
    package func rotate(by caller: AdminCaller) async throws -> (kid: String, activatesAt: Date) {
        try caller.require(.write)
        let key = try await TokenSigner.rotate(store: store, now: clock.now())
        try await audit.record(.adminSigningKeyRotate, by: caller, detail: key.kid)
        return (key.kid, key.activatesAt)
    }
}
