import TouchstoneCrypto

extension IDTokenClaims: JWSClaims {
    package static let requiredType: String? = "JWT"

    /// An ID token that comes back as logout's `id_token_hint` counts expired or not (RP-Initiated Logout 1.0 §2): only
    /// `iss` is checked.
    package func verify(_ expectations: ServerTokenExpectations) throws(JWSError) {
        guard iss == expectations.issuer else { throw JWSError("iss is not this server") }
    }
}
