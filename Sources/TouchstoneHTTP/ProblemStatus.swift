import TouchstoneProtocol

/// The one table from a problem code to its HTTP status and title (PROTOCOL.md "Errors"): each code has one of each,
/// whichever service refused.
enum ProblemStatus {
    /// The status and title of `code`; a code without a row (a bug: `ProblemStatusTableTests` pins every code of
    /// ``ProblemCode`` to a row) answers as an internal error.
    static func of(_ code: ProblemCode) -> (status: Int, title: String) {
        row(code) ?? (500, "Internal error.")
    }

    /// The row of `code`, if the table has one.
    static func row(_ code: ProblemCode) -> (status: Int, title: String)? {
        table[code]
    }

    private static let table: [ProblemCode: (status: Int, title: String)] = [
        .invalidRequest: (400, "The request is malformed."),
        .payloadTooLarge: (413, "The body is larger than 64 KiB."),
        .notFound: (404, "No such resource."),
        .methodNotAllowed: (405, "This method is not allowed here."),
        .unauthorized: (401, "A valid access token is required."),
        .serviceUnavailable: (503, "The service is unavailable; try again."),
        .temporarilyUnavailable: (503, "The server is busy; try again in a moment."),
        .internalError: (500, "Internal error."),

        .appNotFound: (404, "No app has this client id."),
        .usernameTaken: (409, "This username is taken."),
        .weakPassword: (400, "The password must have 8 to 1024 characters (Unicode code points)."),
        .signupDisabled: (403, "Accounts are created by an administrator on this server."),
        .invalidCredentials: (401, "The username or password is wrong."),
        .tooManyAttempts: (429, "Too many attempts; try again later."),
        .recoveryCodeRequired: (403, "No device can approve this one; a recovery code is required."),

        .invalidProof: (401, "A proof of possession could not be verified."),
        .challengeInvalid: (401, "The challenge is unknown, used or expired."),
        .deviceCompromised: (403, "The app's policy refuses devices that report being compromised."),
        .pinRequired: (400, "A PIN is required."),
        .invalidPIN: (400, "The PIN is not acceptable."),
        .invalidKey: (400, "The public key is not acceptable."),
        .attestationRequired: (403, "The app's policy requires a hardware key attestation."),
        .attestationInvalid: (401, "The key attestation could not be verified."),

        .deviceNotFound: (404, "No such device."),
        .deviceRevoked: (403, "This device has been revoked."),
        .invalidAssertion: (401, "The assertion could not be verified."),
        .bindingMismatch: (409, "This device no longer matches its enrolment; register it again."),
        .pinIncorrect: (401, "The PIN is wrong."),
        .pinLocked: (423, "The PIN is locked after too many wrong attempts."),
        .biometryNotAllowed: (403, "The app's policy does not allow biometrics."),
        .appNotInPublisher: (403, "This device is enrolled with another publisher's app."),

        .refreshTokenInvalid: (401, "The refresh token is not valid."),
        .refreshTokenReused: (401, "This refresh token was already used; the session has been ended."),
        .deviceProofRequired: (401, "This request must be signed by the device."),
        .invalidDeviceProof: (401, "The device's signed request could not be verified."),
        .reauthenticationRequired: (401, "Unlock again with a fingerprint or the PIN."),

        .stepUpRequired: (403, "Confirm with your password first (step-up)."),
        .insufficientAuthentication: (403, "This session's authentication is not enough for this request."),
        .insufficientScope: (403, "This admin token's scope does not allow changes."),

        .txnMismatch: (400, "The decision does not commit to this transaction."),
        .alreadyDecided: (409, "This request was already decided."),
        .expired: (410, "This request has expired."),
        .keyExists: (409, "This key is already registered."),

        .webauthnVerificationFailed: (401, "The passkey could not be verified."),
        .ceremonyInvalid: (401, "The ceremony is unknown, used or expired."),
        .credentialPossiblyCloned: (401, "The passkey's signature counter went back: it may have been cloned."),
        .credentialExists: (409, "This passkey is registered already."),

        .pushNotConfigured: (400, "This app cannot send pushes through this provider or to this topic."),
    ]
}
