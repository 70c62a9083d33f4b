import TouchstoneStorage

/// The administrators' operations, by area; `touchstone admin` and the admin API both call these, so each rule (a
/// policy's ranges, what a revocation ends and notifies) is in one place.
///
/// Every change is audited as done by the ``AdminCaller`` it is given, after the change and outside its transaction
/// (``AdminAudit``): a failed audit write fails the call, so the administrator is told and nothing goes unrecorded
/// silently. Writing the event inside each change's transaction would need every store operation to take one, for
/// no gain an administrator can see: the change is the administrator's own, and a retry after a failed audit is safe.
package struct AdminServices: Sendable {
    package let tokens: AdminTokenService

    /// - Parameter random: where tokens, secrets and ids come from (``SystemRandom`` in a server or the CLI).
    package init(store: any TouchstoneStore, clock: any WallClock, random: any RandomSource) {
        let audit = AdminAudit(store: store, clock: clock)
        tokens = AdminTokenService(store: store, clock: clock, random: random, audit: audit)
    }
}
