/// Why a WebAuthn ceremony, configuration or structure was refused.
///
/// Match on ``code`` (stable; new codes may be added). ``detail`` says more for the server's log.
/// ⚠️ Never send ``detail`` to the client: a verification failure should tell the caller *that* it failed, not which
/// byte was wrong.
public struct WebAuthnError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the kind of failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // Configuration and ceremony state.
        /// The relying-party configuration is unusable (bad RP ID or origin, unsupported algorithm, …).
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// A challenge shorter than 16 bytes was offered.
        public static let invalidChallenge = Code(rawValue: "invalid_challenge")
        /// A user entity with an empty or over-long (> 64 bytes) handle, or credentials of several users.
        public static let invalidUser = Code(rawValue: "invalid_user")
        /// The ceremony state has expired.
        public static let ceremonyExpired = Code(rawValue: "ceremony_expired")
        /// The ceremony state was made for another relying party.
        public static let ceremonyMismatch = Code(rawValue: "ceremony_mismatch")

        // Wire structures.
        /// The response JSON is not a WebAuthn L3 response (wrong `type`, `id` not `rawId`, bad base64url, …).
        public static let malformedResponse = Code(rawValue: "malformed_response")
        /// clientDataJSON is not UTF-8 JSON with string `type`, `challenge` and `origin`.
        public static let malformedClientData = Code(rawValue: "malformed_client_data")
        /// The attestation object is not strict canonical CBOR with `fmt`, `attStmt` and `authData`.
        public static let malformedAttestationObject = Code(rawValue: "malformed_attestation_object")
        /// The authenticator data is truncated, has trailing bytes, or its flags disagree with its contents.
        public static let malformedAuthenticatorData = Code(rawValue: "malformed_authenticator_data")
        /// A registration without attested credential data (AT flag clear).
        public static let missingAttestedCredentialData = Code(rawValue: "missing_attested_credential_data")
        /// The COSE key is malformed, has extra parameters, or its parameters disagree with its `alg`.
        public static let malformedCredentialPublicKey = Code(rawValue: "malformed_credential_public_key")
        /// The key's algorithm is not supported here (for example Ed448, -53).
        public static let unsupportedAlgorithm = Code(rawValue: "unsupported_algorithm")

        // Client data checks.
        /// `C.type` is not `webauthn.create` (registration) or `webauthn.get` (authentication).
        public static let clientDataTypeMismatch = Code(rawValue: "client_data_type_mismatch")
        /// `C.challenge` is not the ceremony's challenge.
        public static let challengeMismatch = Code(rawValue: "challenge_mismatch")
        /// `C.origin` is not one of the configured origins.
        public static let originNotAllowed = Code(rawValue: "origin_not_allowed")
        /// `C.crossOrigin` is true and cross-origin use is not allowed.
        public static let crossOriginNotAllowed = Code(rawValue: "cross_origin_not_allowed")
        /// `C.topOrigin` is present and not one of the allowed top origins.
        public static let topOriginNotAllowed = Code(rawValue: "top_origin_not_allowed")

        // Authenticator data checks.
        /// `rpIdHash` is not SHA-256 of the RP ID.
        public static let rpIdHashMismatch = Code(rawValue: "rp_id_hash_mismatch")
        /// The UP flag is clear.
        public static let userNotPresent = Code(rawValue: "user_not_present")
        /// The UV flag is clear although user verification is required.
        public static let userNotVerified = Code(rawValue: "user_not_verified")
        /// The BS flag is set while BE is clear.
        public static let backupStateWithoutEligibility = Code(rawValue: "backup_state_without_eligibility")
        /// The BE flag differs from the one recorded at registration.
        public static let backupEligibilityChanged = Code(rawValue: "backup_eligibility_changed")
        /// The credential's algorithm was not offered in `pubKeyCredParams`.
        public static let algorithmNotAllowed = Code(rawValue: "algorithm_not_allowed")

        // Attestation.
        /// `fmt` is not a supported, accepted attestation statement format.
        public static let unsupportedAttestationFormat = Code(rawValue: "unsupported_attestation_format")
        /// The attestation statement does not verify.
        public static let attestationInvalid = Code(rawValue: "attestation_invalid")
        /// The attestation verified but is not acceptable under the attestation policy.
        public static let attestationNotTrusted = Code(rawValue: "attestation_not_trusted")

        // Credentials and assertions.
        /// The credential ID is longer than 1023 bytes.
        public static let credentialIdTooLong = Code(rawValue: "credential_id_too_long")
        /// The credential ID is one the ceremony excluded (already registered).
        public static let credentialExcluded = Code(rawValue: "credential_excluded")
        /// The asserted credential is not in `allowCredentials`, or is not the credential record supplied.
        public static let credentialNotAllowed = Code(rawValue: "credential_not_allowed")
        /// A discoverable-credential assertion without `userHandle`.
        public static let userHandleMissing = Code(rawValue: "user_handle_missing")
        /// `userHandle` is not the handle of the credential's user account.
        public static let userHandleMismatch = Code(rawValue: "user_handle_mismatch")
        /// The assertion signature does not verify with the credential public key.
        public static let signatureInvalid = Code(rawValue: "signature_invalid")
        /// The signature counter did not increase: the authenticator may have been cloned.
        public static let credentialPossiblyCloned = Code(rawValue: "credential_possibly_cloned")
    }

    /// What went wrong.
    public let code: Code
    /// More detail, for logs only.
    public let detail: String

    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }
}
