/// The `attestation` member of creation options (WebAuthn §5.4.7).
public enum AttestationConveyancePreference: String, Sendable, Hashable, Codable {
    /// The browser may replace any attestation with `none` and zero the AAGUID.
    case none
    /// The browser may substitute an anonymized attestation.
    case indirect
    /// The authenticator's attestation is passed through.
    case direct
    /// Enterprise attestation, which may identify the authenticator individually.
    case enterprise
}
