import TouchstoneClient
import TouchstoneProtocol

/// The one table of what `touchstone` tells a person when the SDK or the server refuses: a sentence for each code the
/// SDK reports itself (``TouchstoneError/Code``), and for each problem code of the server (``ProblemCode``) that needs
/// more than the server's own words; any other problem shows the server's detail, or its title.
///
/// The sentences name this tool's commands and options (`--pin`, `touchstone device register`), so they live here:
/// the SDK's messages are for developers, and the server's titles (`ProblemStatus`) are the wire's, for any client.
enum ProblemText {
    /// A sentence a person understands.
    /// - Parameter server: the server the profile talks to, named when the device is not registered there.
    static func sentence(for error: TouchstoneError, server: String) -> String {
        switch error.code {
        case .pinIncorrect:
            let remaining = error.attemptsRemaining ?? 0
            return "wrong PIN: \(remaining) attempt\(remaining == 1 ? "" : "s") remaining before the PIN locks"
        case .pinLocked:
            return "the PIN is locked after too many wrong attempts; log in with a fingerprint, or register this device again"
        case .bindingMismatch:
            return "this device no longer matches its registration; its keys were removed: register again"
        case .deviceCompromised:
            return "this device reports being compromised (jailbroken or rooted); nothing was sent"
        case .userCancelled:
            return "cancelled; nothing changed"
        case .biometryFailed:
            return "the fingerprint did not match; try again"
        case .biometryLockout:
            return "the fingerprint sensor is locked after too many attempts; log in with the PIN (--pin)"
        case .userFallback:
            return "the PIN was chosen; log in with --pin"
        case .biometryNotAvailable:
            return "no fingerprint reader is available; log in with the PIN (--pin)"
        case .notRegistered:
            return "this profile is not registered with \(server); run `touchstone device register`"
        case .reauthenticationRequired:
            return "the session is over; unlock with `touchstone device login`"
        case .invalidPIN:
            return "the PIN is not acceptable: \(error.message)"
        case .optedOut:
            return "biometrics are off on this device; log in with the PIN (--pin)"
        case .approvalDenied:
            return "your other device denied this registration"
        case .approvalExpired:
            return "nobody approved this registration in time; register again"
        case .stepUpRequired:
            return "confirm with your password first: `touchstone device step-up`"
        case .numberRequired:
            return "pick the number the browser or the new device shows with --number"
        case .transport:
            return error.message
        case .server:
            return refusal(error)
        default:
            return "\(error.code): \(error.message)"
        }
    }

    /// A refusal the SDK passes on as it came (``TouchstoneError/Code/server``): its sentence here, or the server's
    /// words (the problem's detail, or its title: ``TouchstoneError/message``).
    private static func refusal(_ error: TouchstoneError) -> String {
        if let code = error.serverCode, let sentence = serverSentences[code] { return sentence }
        return "the server refused (\(error.serverCode?.rawValue ?? "unknown")): \(error.message)"
    }

    /// The server's problem codes that the SDK does not turn into codes of its own, and that a person needs told more
    /// than the server says.
    private static let serverSentences: [ProblemCode: String] = [
        .recoveryCodeRequired:
            "no device of yours can approve this one: register with --recovery-code and one of your recovery codes"
    ]
}
