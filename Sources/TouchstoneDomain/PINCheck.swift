import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// The one PIN check, for logins and decisions alike: bcrypt against the hash read with the device, off the event
/// loop. Its ``PINAttempt`` is applied by the transaction that acts on it (``SQLStore/apply(_:deviceId:at:in:)``), which
/// counts a wrong PIN, resets the count after a right one, and locks at the app's `maxPinAttempts`.
struct PINCheck: Sendable {
    /// Where the app's `maxPinAttempts` is read.
    let apps: any AppStore
    let hasher: PasswordHasher
    let metrics: ServerMetrics

    /// Checks `pin` against `device`'s PIN hash; a locked PIN is not checked (the transaction finds it locked and counts
    /// nothing).
    /// - Throws: 401 `invalid_assertion` when the device has no PIN.
    package func check(_ pin: String, device: DeviceRecord) async throws -> PINAttempt {
        guard let pinHash = device.pinHash else { throw ProblemError.invalidAssertion }
        let limit =
            try await apps.app(clientId: device.clientId)?.policy.maxPinAttempts
            ?? AppPolicy(clientId: device.clientId, publisher: device.publisher).maxPinAttempts
        let isRight = device.pinLockedAt == nil ? try await hasher.verify(pin, against: pinHash) : false
        return PINAttempt(pinHash: pinHash, isRight: isRight, limit: limit)
    }

    /// The refusal for a PIN attempt that was not accepted; counts the lockout when this attempt locked the PIN.
    package func refusal(_ outcome: PINOutcome) -> ProblemError {
        switch outcome {
        case .wrong(let attemptsRemaining):
            return ProblemError(.pinIncorrect, attemptsRemaining: attemptsRemaining)
        case .locked(let now):
            if now { metrics.pinLockout() }
            return .pinLocked
        case .deviceRevoked: return .deviceRevoked
        // A new PIN was set while this one was checked against the old one.
        case .accepted, .changed: return .invalidAssertion
        }
    }
}
