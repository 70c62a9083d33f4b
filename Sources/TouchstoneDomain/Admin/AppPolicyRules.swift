import TouchstoneProtocol
import TouchstoneStorage

/// The ranges an administrator may give an app's policy, for `admin app create` and the admin API alike. Each message
/// names the member as the API spells it and the command's option.
enum AppPolicyRules {
    /// - Throws: `invalid_request` for an empty client id or publisher, a value out of its range, or a policy that
    ///   allows neither biometrics nor a PIN.
    static func check(_ policy: AppPolicy) throws {
        guard !policy.clientId.isEmpty, !policy.publisher.isEmpty else {
            throw ProblemError.invalidRequest("the client id and the publisher must not be empty")
        }
        guard (1...20).contains(policy.maxPinAttempts) else {
            throw ProblemError.invalidRequest("maxPinAttempts (--max-pin-attempts) takes 1 to 20")
        }
        let seconds = 30...Int(SessionService.longestInactivity)
        guard seconds.contains(policy.inactivityTimeoutSeconds) else {
            throw ProblemError.invalidRequest(
                "inactivityTimeoutSeconds (--inactivity-timeout) takes \(seconds.lowerBound) to \(seconds.upperBound) seconds")
        }
        guard seconds.contains(policy.privilegedWindowSeconds) else {
            throw ProblemError.invalidRequest(
                "privilegedWindowSeconds (--privileged-window) takes \(seconds.lowerBound) to \(seconds.upperBound) seconds")
        }
        guard policy.biometricAllowed || policy.pinRequired else {
            throw ProblemError.invalidRequest(
                "an app needs biometrics or a PIN: biometricAllowed and pinRequired (--no-biometrics and --no-pin) "
                    + "cannot both be off")
        }
    }
}

/// Runs a check of the registration types (``OIDCClientRegistration``, ``CIBAClientRegistration``,
/// ``AttestationRegistration``, ``PushCredentialsInput``, ``ClientKeySet``), whose ``ConfigurationError`` says what to
/// change, and refuses with `invalid_request` and that message instead.
func refusingConfiguration<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ConfigurationError {
        throw ProblemError.invalidRequest(error.description)
    }
}
