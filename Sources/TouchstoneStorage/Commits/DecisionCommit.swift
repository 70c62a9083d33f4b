import Foundation

/// What a verified decision on an inbox item writes besides the item, in the item's transaction: the checked PIN (a
/// wrong one is counted and records nothing), and the deciding device, which must still be active and hold the key
/// that signed — its row is locked until commit, so a revocation lands wholly before or after the decision.
package struct DecisionCommit: Sendable {
    package let deviceId: String
    package let signedWithBiometricKey: Bool
    package let keyThumbprint: String
    package let pin: PINAttempt?
    package let now: Date

    /// How far the commit got; every step before the one named is committed.
    package enum Outcome: Sendable, Equatable {
        case recorded
        /// The item was decided, or expired, meanwhile.
        case notPending
        case deviceRevoked
        /// The signing key is no longer registered (biometric opt-out).
        case keyRemoved
        /// A PIN that was not accepted (counted when wrong).
        case pin(PINOutcome)
    }

    package init(deviceId: String, signedWithBiometricKey: Bool, keyThumbprint: String, pin: PINAttempt?, now: Date) {
        self.deviceId = deviceId
        self.signedWithBiometricKey = signedWithBiometricKey
        self.keyThumbprint = keyThumbprint
        self.pin = pin
        self.now = now
    }
}
