/// A PIN checked (bcrypt) against the hash read with its device, to be applied in the transaction that acts on it:
/// there it counts only while the device is active, its PIN unlocked and still that hash, so a revocation, a lock or a
/// new PIN that lands meanwhile wins.
struct PINAttempt: Sendable, Equatable {
    /// The hash the PIN was checked against.
    let pinHash: String
    let isRight: Bool
    /// The count of wrong PINs that locks the PIN (the policy's `maxPinAttempts`).
    let limit: Int
}

/// What applying a ``PINAttempt`` did.
enum PINOutcome: Sendable, Equatable {
    /// Right: the count is reset.
    case accepted
    /// Wrong and counted; the PIN is not locked yet.
    case wrong(attemptsRemaining: Int)
    /// Locked, now or before (nothing counted then).
    case locked
    case deviceRevoked
    /// The PIN was set again since it was checked; nothing counted.
    case changed
}
