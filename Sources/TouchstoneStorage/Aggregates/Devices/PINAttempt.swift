/// A PIN checked (bcrypt) against the hash read with its device, to be applied in the transaction that acts on it:
/// there it counts only while the device is active, its PIN unlocked and still that hash, so a revocation, a lock or a
/// new PIN that lands meanwhile wins.
package struct PINAttempt: Sendable, Equatable {
    /// The hash the PIN was checked against.
    package let pinHash: String
    package let isRight: Bool
    /// The count of wrong PINs that locks the PIN (the policy's `maxPinAttempts`).
    package let limit: Int

    package init(pinHash: String, isRight: Bool, limit: Int) {
        self.pinHash = pinHash
        self.isRight = isRight
        self.limit = limit
    }
}
