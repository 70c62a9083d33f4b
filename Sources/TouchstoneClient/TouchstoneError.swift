import TouchstoneProtocol

/// Every error the SDK throws: a stable code, and the details some codes carry.
///
/// A struct, not an enum, so that new codes never break a `switch` in an app: compare `code` with the static
/// members of ``Code``.
public struct TouchstoneError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable error code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// This device has no biometric sensor (or the platform offers none to apps).
        public static let biometryNotAvailable = Self(rawValue: "biometryNotAvailable")
        /// The sensor exists but no fingerprint or face is enrolled on the device.
        public static let biometryNotEnrolled = Self(rawValue: "biometryNotEnrolled")
        /// The device has no passcode, so biometrics cannot protect keys.
        public static let passcodeNotSet = Self(rawValue: "passcodeNotSet")
        /// The user turned biometrics off for this app on this device.
        public static let optedOut = Self(rawValue: "optedOut")
        /// The device's integrity check reports it jailbroken or rooted.
        public static let deviceCompromised = Self(rawValue: "deviceCompromised")
        /// The app's server-side policy forbids biometric login.
        public static let policyForbidsBiometry = Self(rawValue: "policyForbidsBiometry")
        /// The user cancelled the prompt.
        public static let userCancelled = Self(rawValue: "userCancelled")
        /// The user chose "use PIN" at the biometric prompt.
        public static let userFallback = Self(rawValue: "userFallback")
        /// The sensor is locked after too many failed attempts.
        public static let biometryLockout = Self(rawValue: "biometryLockout")
        /// The biometric did not match.
        public static let biometryFailed = Self(rawValue: "biometryFailed")
        /// This device is not registered (or its registration was wiped).
        public static let notRegistered = Self(rawValue: "notRegistered")
        /// The device no longer matches its registration; its keys were wiped: register again.
        public static let bindingMismatch = Self(rawValue: "bindingMismatch")
        /// The PIN is wrong; ``TouchstoneError/attemptsRemaining`` says how many tries are left.
        public static let pinIncorrect = Self(rawValue: "pinIncorrect")
        /// The PIN is locked after too many wrong attempts.
        public static let pinLocked = Self(rawValue: "pinLocked")
        /// The PIN does not fit the app's policy; nothing was sent.
        public static let invalidPIN = Self(rawValue: "invalidPIN")
        /// The session was idle too long (or is too old): unlock with a biometric or the PIN.
        public static let reauthenticationRequired = Self(rawValue: "reauthenticationRequired")
        /// The action needs the password again (step-up).
        public static let stepUpRequired = Self(rawValue: "stepUpRequired")
        /// The user's other device denied this registration.
        public static let approvalDenied = Self(rawValue: "approvalDenied")
        /// Nobody approved this registration in time.
        public static let approvalExpired = Self(rawValue: "approvalExpired")
        /// A web login or a new device is approved by picking the number it shows (the browser, the new device).
        public static let numberRequired = Self(rawValue: "numberRequired")
        /// The server refused; ``TouchstoneError/serverCode`` has its protocol code.
        public static let server = Self(rawValue: "server")
        /// The server could not be reached, or answered something that is not the protocol.
        public static let transport = Self(rawValue: "transport")
    }

    public let code: Code
    /// With ``Code/pinIncorrect``.
    public let attemptsRemaining: Int?
    /// With ``Code/server``: the protocol's error code (e.g. `device_revoked`).
    public let serverCode: ProblemCode?
    /// A sentence for logs and developers; not for users.
    public let message: String

    public init(_ code: Code, _ message: String, attemptsRemaining: Int? = nil, serverCode: ProblemCode? = nil) {
        self.code = code
        self.message = message
        self.attemptsRemaining = attemptsRemaining
        self.serverCode = serverCode
    }

    public var description: String { "\(code): \(message)" }

    /// The error a server problem answer means for the app.
    static func from(_ problem: Problem) -> TouchstoneError {
        switch problem.code {
        case .bindingMismatch: TouchstoneError(.bindingMismatch, problem.title)
        case .pinIncorrect: TouchstoneError(.pinIncorrect, problem.title, attemptsRemaining: problem.attemptsRemaining)
        case .pinLocked: TouchstoneError(.pinLocked, problem.title)
        case .reauthenticationRequired: TouchstoneError(.reauthenticationRequired, problem.title)
        case .stepUpRequired: TouchstoneError(.stepUpRequired, problem.title)
        case .insufficientAuthentication: TouchstoneError(.reauthenticationRequired, problem.title)
        case .deviceCompromised: TouchstoneError(.deviceCompromised, problem.title)
        case .biometryNotAllowed: TouchstoneError(.policyForbidsBiometry, problem.title)
        default: TouchstoneError(.server, problem.detail ?? problem.title, serverCode: problem.code)
        }
    }
}
