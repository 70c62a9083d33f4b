/// Why a hardware key attestation was refused.
///
/// Match on ``code`` (stable; new codes may be added). ``detail`` says more for the server's log.
/// ⚠️ Never send ``detail`` to the client: the enrolment refuses every failed attestation with one answer
/// (`attestation_invalid`), whatever the reason.
public struct AttestationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the check that failed.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // Trust anchors and certificate chains.
        /// A trust anchor given by the operator is not one PEM certificate.
        public static let invalidTrustAnchor = Code(rawValue: "invalid_trust_anchor")
        /// A certificate of the chain is not DER X.509.
        public static let malformedCertificate = Code(rawValue: "malformed_certificate")
        /// The chain is empty or too long, a certificate is not signed by the next one, or an issuer is not a CA.
        public static let chainInvalid = Code(rawValue: "chain_invalid")
        /// A certificate of the chain is not valid at the verification time.
        public static let certificateOutsideValidity = Code(rawValue: "certificate_outside_validity")
        /// The chain does not end at a trusted root.
        public static let untrustedRoot = Code(rawValue: "untrusted_root")
        /// A certificate of the chain is REVOKED or SUSPENDED in the attestation status list.
        public static let certificateRevoked = Code(rawValue: "certificate_revoked")

        // Android key attestation.
        /// The leaf has no key attestation extension (1.3.6.1.4.1.11129.2.1.17).
        public static let missingKeyDescription = Code(rawValue: "missing_key_description")
        /// The key attestation extension is not a strict DER `KeyDescription` of a known version.
        public static let malformedKeyDescription = Code(rawValue: "malformed_key_description")
        /// The attested key is not the key being enrolled.
        public static let keyMismatch = Code(rawValue: "key_mismatch")
        /// `attestationChallenge` is not the enrolment challenge.
        public static let challengeMismatch = Code(rawValue: "challenge_mismatch")
        /// `attestationSecurityLevel` or `keyMintSecurityLevel` is neither TrustedEnvironment nor StrongBox.
        public static let securityLevelInsufficient = Code(rawValue: "security_level_insufficient")
        /// `hardwareEnforced` `purpose` does not contain SIGN.
        public static let purposeNotSign = Code(rawValue: "purpose_not_sign")
        /// `hardwareEnforced` `origin` is not GENERATED.
        public static let originNotGenerated = Code(rawValue: "origin_not_generated")
        /// `hardwareEnforced` `rootOfTrust` is absent or its `verifiedBootState` is not Verified.
        public static let bootStateNotVerified = Code(rawValue: "boot_state_not_verified")
        /// `hardwareEnforced` `rootOfTrust` says the bootloader is unlocked.
        public static let deviceNotLocked = Code(rawValue: "device_not_locked")
        /// No package and signing-certificate digest of `attestationApplicationId` form an allowed pair.
        public static let applicationNotAllowed = Code(rawValue: "application_not_allowed")
        /// A biometric key has `noAuthRequired`.
        public static let noAuthRequired = Code(rawValue: "no_auth_required")
        /// A biometric key's `userAuthType` is not exactly the biometric bit (2).
        public static let userAuthTypeNotBiometric = Code(rawValue: "user_auth_type_not_biometric")
        /// A biometric key has an `authTimeout`: a biometric would not be needed for every use.
        public static let authTimeoutPresent = Code(rawValue: "auth_timeout_present")

        // Apple App Attest.
        /// The attestation object is not CBOR `{fmt: "apple-appattest", attStmt: {x5c, receipt}, authData}`.
        public static let malformedAttestationObject = Code(rawValue: "malformed_attestation_object")
        /// The authenticator data is truncated or lacks its attested credential data.
        public static let malformedAuthenticatorData = Code(rawValue: "malformed_authenticator_data")
        /// The leaf's nonce extension is absent or is not SHA-256(authData ‖ clientDataHash).
        public static let nonceMismatch = Code(rawValue: "nonce_mismatch")
        /// `keyId` is not SHA-256 of the leaf's public key point.
        public static let keyIDMismatch = Code(rawValue: "key_id_mismatch")
        /// `rpIdHash` is not SHA-256 of an allowed App ID.
        public static let appIDNotAllowed = Code(rawValue: "app_id_not_allowed")
        /// The sign counter is not 0.
        public static let counterNotZero = Code(rawValue: "counter_not_zero")
        /// The AAGUID names no environment, or the development environment where only production is allowed.
        public static let environmentNotAllowed = Code(rawValue: "environment_not_allowed")
        /// The credential ID is not `keyId`.
        public static let credentialIDMismatch = Code(rawValue: "credential_id_mismatch")
    }

    /// Which check failed.
    public let code: Code
    /// What exactly was wrong, for the server's log only.
    public let detail: String

    /// An error for the check `code`, with `detail` for the log.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }
}
