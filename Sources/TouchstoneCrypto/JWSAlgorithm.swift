/// The JWS algorithms Touchstone verifies (RFC 7518 §3, RFC 8037). `none` and the HMAC family are not among them:
/// no header can ask for them.
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// ECDSA P-256 with SHA-256, signature `r‖s`.
    case es256 = "ES256"
    /// Ed25519.
    case edDSA = "EdDSA"
    /// RSASSA-PSS with SHA-256 (salt of 32 bytes).
    case ps256 = "PS256"
    /// RSASSA-PKCS1-v1_5 with SHA-256: only where a rule allows it.
    case rs256 = "RS256"
}
