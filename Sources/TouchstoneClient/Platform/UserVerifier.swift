/// The platform's user verification: a fingerprint or face (LocalAuthentication, fprintd, a script in tests).
public protocol UserVerifier: Sendable {
    /// Whether a biometric can be asked for now, and if not, why.
    func biometryState() async -> BiometryState

    /// Asks the user to verify, showing `prompt`. Returns when the biometric matched.
    /// - Throws: ``TouchstoneError`` with `userCancelled`, `userFallback` ("use PIN"), `biometryLockout`,
    ///   `biometryFailed` (no match) or `biometryNotAvailable`.
    func verify(prompt: String) async throws
}

/// What the sensor can do now.
public enum BiometryState: Sendable, Equatable {
    case available(BiometryKind)
    case noHardware
    case notEnrolled
    case passcodeNotSet
    case lockedOut
}

/// The kind of biometric a platform offers.
public enum BiometryKind: String, Sendable, Equatable, Codable {
    case fingerprint
    case face
}
