import Foundation

/// What a verified decision on an inbox item writes besides the item, in the item's transaction: its signing device's
/// steps (``SigningDevice``: the PIN, then the device still active and holding the key — its row stays locked until
/// commit, so a revocation lands wholly before or after the decision).
package struct DecisionCommit: Sendable {
    package let signer: SigningDevice
    package let now: Date

    package var deviceId: String { signer.deviceId }

    /// How far the commit got; every step before the one named is committed.
    package enum Outcome: Sendable, Equatable {
        case recorded
        /// The item was decided, or expired, meanwhile.
        case notPending
        /// The signing device's steps refused (nothing about the item was written).
        case refused(SigningDevice.Refusal)
    }

    package init(signer: SigningDevice, now: Date) {
        self.signer = signer
        self.now = now
    }
}
