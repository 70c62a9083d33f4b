/// A verifier that answers as scripted, standing in for a sensor in tests and demos.
///
/// ⚠️ It verifies nobody: never use it where a real user must be present.
public struct ScriptedVerifier: UserVerifier {
    /// What every verification does.
    public enum Outcome: String, Sendable, CaseIterable {
        /// The biometric matches.
        case match
        /// The biometric does not match.
        case nomatch
        /// The user cancels.
        case cancel
        /// The user chooses "use PIN".
        case fallback
        /// The sensor is locked out.
        case lockout
    }

    public let outcome: Outcome

    public init(_ outcome: Outcome) {
        self.outcome = outcome
    }

    public func biometryState() async -> BiometryState {
        outcome == .lockout ? .lockedOut : .available(.fingerprint)
    }

    public func verify(prompt: String) async throws {
        switch outcome {
        case .match: return
        case .nomatch: throw TouchstoneError(.biometryFailed, "the fingerprint did not match")
        case .cancel: throw TouchstoneError(.userCancelled, "the user cancelled")
        case .fallback: throw TouchstoneError(.userFallback, "the user chose the PIN")
        case .lockout: throw TouchstoneError(.biometryLockout, "the sensor is locked after too many attempts")
        }
    }
}

/// The verifier of a device without a biometric sensor: biometrics are unavailable, the device uses its PIN.
public struct NoBiometrics: UserVerifier {
    public init() {}

    public func biometryState() async -> BiometryState { .noHardware }

    public func verify(prompt: String) async throws {
        throw TouchstoneError(.biometryNotAvailable, "this device has no biometric sensor")
    }
}
