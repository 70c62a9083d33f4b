/// A stable, machine-readable error code carried in the `code` member of every problem+json answer.
///
/// A struct rather than an enum so that codes added by later protocol versions never break clients.
public struct ProblemCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static let invalidRequest = Self(rawValue: "invalid_request")
    public static let payloadTooLarge = Self(rawValue: "payload_too_large")
    public static let notFound = Self(rawValue: "not_found")
    public static let methodNotAllowed = Self(rawValue: "method_not_allowed")
    public static let unauthorized = Self(rawValue: "unauthorized")
    public static let serviceUnavailable = Self(rawValue: "service_unavailable")
    /// Too many password and PIN hashes wait already (PROTOCOL "Operations"); retry after `Retry-After`.
    public static let temporarilyUnavailable = Self(rawValue: "temporarily_unavailable")
    public static let internalError = Self(rawValue: "internal_error")

    public static let appNotFound = Self(rawValue: "app_not_found")
    public static let usernameTaken = Self(rawValue: "username_taken")
    public static let weakPassword = Self(rawValue: "weak_password")
    public static let signupDisabled = Self(rawValue: "signup_disabled")
    public static let invalidCredentials = Self(rawValue: "invalid_credentials")
    public static let tooManyAttempts = Self(rawValue: "too_many_attempts")
    public static let recoveryCodeRequired = Self(rawValue: "recovery_code_required")

    public static let invalidProof = Self(rawValue: "invalid_proof")
    public static let challengeInvalid = Self(rawValue: "challenge_invalid")
    public static let deviceCompromised = Self(rawValue: "device_compromised")
    public static let pinRequired = Self(rawValue: "pin_required")
    public static let invalidPIN = Self(rawValue: "invalid_pin")
    public static let invalidKey = Self(rawValue: "invalid_key")
    public static let attestationRequired = Self(rawValue: "attestation_required")
    public static let attestationInvalid = Self(rawValue: "attestation_invalid")

    public static let deviceNotFound = Self(rawValue: "device_not_found")
    public static let deviceRevoked = Self(rawValue: "device_revoked")
    public static let invalidAssertion = Self(rawValue: "invalid_assertion")
    public static let bindingMismatch = Self(rawValue: "binding_mismatch")
    public static let pinIncorrect = Self(rawValue: "pin_incorrect")
    public static let pinLocked = Self(rawValue: "pin_locked")
    public static let biometryNotAllowed = Self(rawValue: "biometry_not_allowed")
    public static let appNotInPublisher = Self(rawValue: "app_not_in_publisher")

    public static let refreshTokenInvalid = Self(rawValue: "refresh_token_invalid")
    public static let refreshTokenReused = Self(rawValue: "refresh_token_reused")
    public static let deviceProofRequired = Self(rawValue: "device_proof_required")
    public static let invalidDeviceProof = Self(rawValue: "invalid_device_proof")
    public static let reauthenticationRequired = Self(rawValue: "reauthentication_required")

    public static let stepUpRequired = Self(rawValue: "step_up_required")
    public static let insufficientAuthentication = Self(rawValue: "insufficient_authentication")
    /// An admin token of scope `read` asked for a change (PROTOCOL "Administration API").
    public static let insufficientScope = Self(rawValue: "insufficient_scope")

    public static let txnMismatch = Self(rawValue: "txn_mismatch")
    public static let alreadyDecided = Self(rawValue: "already_decided")
    public static let expired = Self(rawValue: "expired")
    public static let keyExists = Self(rawValue: "key_exists")

    public static let webauthnVerificationFailed = Self(rawValue: "webauthn_verification_failed")
    public static let ceremonyInvalid = Self(rawValue: "ceremony_invalid")
    public static let credentialPossiblyCloned = Self(rawValue: "credential_possibly_cloned")
    public static let credentialExists = Self(rawValue: "credential_exists")

    /// The device's app has no push credentials for the provider (or not the topic) a registration names.
    public static let pushNotConfigured = Self(rawValue: "push_not_configured")
}
