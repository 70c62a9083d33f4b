/// What applying a ``PINAttempt`` did.
package enum PINOutcome: Sendable, Equatable {
    /// Right: the count is reset.
    case accepted
    /// Wrong and counted; the PIN is not locked yet.
    case wrong(attemptsRemaining: Int)
    /// Locked: `now` by this attempt, or before it (nothing counted then).
    case locked(now: Bool)
    case deviceRevoked
    /// The PIN was set again since it was checked; nothing counted.
    case changed
}
