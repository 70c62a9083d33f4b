import Synchronization
import TouchstoneClient

/// A test verifier: reports `state`, fails each verification with `failure` (or matches), and counts them.
///
/// ScriptedVerifier ties its state to its outcome (`lockout` is locked out); this one separates them, to reach
/// the states a sensor reports before any prompt (not enrolled, no passcode) and a prompt that fails although
/// the sensor looked available.
final class StateVerifier: UserVerifier {
    let state: BiometryState
    let failure: TouchstoneError.Code?
    private let count = Mutex(0)

    init(state: BiometryState = .available(.fingerprint), failure: TouchstoneError.Code? = nil) {
        self.state = state
        self.failure = failure
    }

    /// How many times the user was asked to verify.
    var verifications: Int { count.withLock { $0 } }

    func biometryState() async -> BiometryState { state }

    func verify(prompt: String) async throws {
        count.withLock { $0 += 1 }
        if let failure { throw TouchstoneError(failure, "scripted \(failure)") }
    }
}
