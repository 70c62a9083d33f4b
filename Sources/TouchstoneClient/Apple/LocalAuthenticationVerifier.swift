#if canImport(LocalAuthentication)
import Foundation
import LocalAuthentication

/// User verification with Touch ID, Face ID or Optic ID through LocalAuthentication.
///
/// Each verification evaluates a fresh `LAContext` with `.deviceOwnerAuthenticationWithBiometrics`: a biometric
/// only, never the device passcode in its place ("use PIN" ends the prompt with `userFallback`).
///
/// **One prompt, one signature.** The biometric key lives in the Secure Enclave with `.biometryCurrentSet`, so the
/// Secure Enclave itself refuses to sign without a biometric that was just verified. So that the user sees one
/// prompt and not two, the context of a successful ``verify(prompt:)`` is kept here and lent to the next signature
/// of a biometric ``SecureEnclaveKey`` (as the key's `authenticationContext`): the Secure Enclave accepts a context
/// that was already evaluated without asking again. The context serves that one signature and is then invalidated;
/// unused, it expires after `reuseWindow`. When the biometric key signs without a fresh context, this verifier asks
/// again (with the last prompt), so no signature is ever made without a biometric. The `LAContext`, which is not
/// `Sendable`, never leaves this actor: the signature is made here.
///
/// - ⚠️ The app's `Info.plist` must have `NSFaceIDUsageDescription`, or Face ID requests fail.
/// - ⚠️ Use one instance for the verifier and the ``KeychainKeyStore``
///   (``Platform/apple(accessGroup:integrity:fallbackTitle:transport:)`` does): a biometric key lent no context
///   prompts a second time.
/// - ⚠️ A successful verification authorises the next biometric signature of this process within `reuseWindow`:
///   verify only right before the signature the prompt announced (the SDK's flows do).
public actor LocalAuthenticationVerifier: UserVerifier {
    /// How long a successful verification waits for the biometric signature it authorises.
    public let reuseWindow: Duration
    /// The title of the prompt's fallback button ("use PIN"): `nil` shows the system's, `""` hides it.
    public let fallbackTitle: String?

    private var authorized: (context: LAContext, at: ContinuousClock.Instant)?
    private var lastPrompt = "Verify your identity"

    /// - Parameters:
    ///   - fallbackTitle: the fallback button's title; choosing it throws `userFallback` (the SDK then asks for the PIN).
    ///   - reuseWindow: how long a verification stays good for the biometric signature that follows it.
    public init(fallbackTitle: String? = nil, reuseWindow: Duration = .seconds(60)) {
        self.fallbackTitle = fallbackTitle
        self.reuseWindow = reuseWindow
    }

    public func biometryState() async -> BiometryState {
        let context = LAContext()
        var error: NSError?
        if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
            return .available(Self.kind(of: context.biometryType))
        }
        guard let error, let code = Self.code(of: error) else { return .noHardware }
        switch code {
        case .biometryNotEnrolled: return .notEnrolled
        case .passcodeNotSet: return .passcodeNotSet
        case .biometryLockout: return .lockedOut
        default: return .noHardware
        }
    }

    /// Asks for a biometric, showing `prompt`; on success, keeps the evaluated context for the next biometric
    /// signature (see the type's discussion).
    /// - Throws: ``TouchstoneError`` `userCancelled`, `userFallback`, `biometryLockout`, `biometryFailed`,
    ///   `biometryNotAvailable`, `biometryNotEnrolled` or `passcodeNotSet`.
    public func verify(prompt: String) async throws {
        if !prompt.isEmpty { lastPrompt = prompt }
        let context = try await evaluate(prompt: lastPrompt)
        authorized?.context.invalidate()
        authorized = (context, ContinuousClock.now)
    }

    /// Signs `signingInput` (ES256: SHA-256 inside the Secure Enclave, r‖s) with the Secure Enclave key whose
    /// `dataRepresentation` is `keyData`, under the context of the last verification, or of a new one.
    /// - Throws: ``TouchstoneError``: what ``verify(prompt:)`` throws when it had to ask again, or
    ///   `biometryNotAvailable` when the Secure Enclave refuses (e.g. the enrolled biometrics changed, which
    ///   invalidates a `.biometryCurrentSet` key).
    func signature(of signingInput: [UInt8], keyData: Data) async throws -> [UInt8] {
        let context: LAContext
        if let kept = takeAuthorized() {
            context = kept
        } else {
            context = try await evaluate(prompt: lastPrompt)
        }
        defer { context.invalidate() }
        do {
            return try SecureEnclaveKey.signature(of: signingInput, keyData: keyData, context: context)
        } catch {
            if Self.code(of: error) != nil { throw Self.touchstoneError(error) }
            throw TouchstoneError(
                .biometryNotAvailable,
                "the Secure Enclave refused the biometric key (the enrolled biometrics may have changed): \(error)")
        }
    }

    /// The kept context, once: `nil` when there is none or it is older than `reuseWindow`.
    private func takeAuthorized() -> LAContext? {
        guard let kept = authorized else { return nil }
        authorized = nil
        guard ContinuousClock.now - kept.at <= reuseWindow else {
            kept.context.invalidate()
            return nil
        }
        return kept.context
    }

    /// A fresh context, evaluated for a biometric.
    private func evaluate(prompt: String) async throws -> LAContext {
        let context = LAContext()
        context.localizedFallbackTitle = fallbackTitle
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: prompt) { success, error in
                    if success {
                        continuation.resume()
                    } else {
                        let failure: any Error = error ?? TouchstoneError(.biometryFailed, "the biometric check failed")
                        continuation.resume(throwing: failure)
                    }
                }
            }
        } catch {
            context.invalidate()
            throw Self.touchstoneError(error)
        }
        return context
    }

    private static func kind(of type: LABiometryType) -> BiometryKind {
        // Face ID, Optic ID and whatever comes next are reported as a face: the closest kind we have.
        type == .touchID ? .fingerprint : .face
    }

    private static func code(of error: any Error) -> LAError.Code? {
        let error = error as NSError
        guard error.domain == LAErrorDomain else { return nil }
        return LAError.Code(rawValue: error.code)
    }

    /// The SDK's error for what LocalAuthentication reported.
    private static func touchstoneError(_ error: any Error) -> TouchstoneError {
        if let error = error as? TouchstoneError { return error }
        guard let code = code(of: error) else {
            return TouchstoneError(.biometryNotAvailable, "the biometric check failed: \(error)")
        }
        switch code {
        case .userCancel, .systemCancel, .appCancel:
            return TouchstoneError(.userCancelled, "the biometric prompt was cancelled")
        case .userFallback:
            return TouchstoneError(.userFallback, "the user chose the PIN")
        case .biometryLockout:
            return TouchstoneError(.biometryLockout, "the sensor is locked after too many attempts")
        case .authenticationFailed:
            return TouchstoneError(.biometryFailed, "the biometric did not match")
        case .biometryNotEnrolled:
            return TouchstoneError(.biometryNotEnrolled, "no fingerprint or face is enrolled")
        case .passcodeNotSet:
            return TouchstoneError(.passcodeNotSet, "the device has no passcode")
        case .biometryNotAvailable:
            return TouchstoneError(.biometryNotAvailable, "biometrics are not available to this app")
        default:
            return TouchstoneError(.biometryNotAvailable, "the biometric check failed: \(error)")
        }
    }
}
#endif
