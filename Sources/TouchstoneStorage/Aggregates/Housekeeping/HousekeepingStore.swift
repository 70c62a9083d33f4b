import Foundation

/// Deleting what has expired. Every method is atomic on its own.
package protocol HousekeepingStore: Sendable {
    /// Deletes expired challenges, used-token digests, spent client-assertion and DPoP `jti`s, WebAuthn ceremonies,
    /// security notices (30 days) and stale throttle rows.
    func purgeExpired(now: Date) async throws
}
