import TouchstoneProtocol

/// The claims of an ID token (OpenID Connect Core §2), as the provider signs them.
package struct IDTokenClaims: Codable, Sendable, Equatable {
    package var iss: String
    package var sub: String
    package var aud: String
    package var iat: Int64
    package var exp: Int64
    package var auth_time: Int64
    package var nonce: String?
    package var acr: AssuranceLevel
    package var amr: [AuthenticationMethod]
    /// base64url of the left half of SHA-256 of the access token (§3.1.3.6).
    package var at_hash: String
    /// The provider session's id, as RP-initiated logout names it.
    package var sid: String
    /// Only with scope `profile`.
    package var preferred_username: String?
    /// The transaction hash the approving device signed (CIBA).
    package var txn: String? = nil
}
