/// An app that is an OpenID Connect client: where it may be sent back, and how it authenticates.
package struct OIDCClientRecord: Sendable, Equatable {
    package var clientId: String
    /// The name the sign-in page shows ("Sign in to …").
    package var name: String
    /// Compared as strings, exactly.
    package var redirectURIs: [String]
    package var postLogoutRedirectURIs: [String]
    /// SHA-256 of the client secret; `nil` for a public client (PKCE only).
    package var secretHash: String?
    /// `RS256` or `ES256`.
    package var idTokenAlgorithm: String
    /// The client's JWK Set of public keys (private_key_jwt), as JSON; `nil` for a client without keys.
    package var jwks: String?
    /// Registered with `--fapi`: the FAPI 2.0 Security Profile applies.
    package var fapi: Bool

    package init(
        clientId: String, name: String, redirectURIs: [String], postLogoutRedirectURIs: [String], secretHash: String?,
        idTokenAlgorithm: String, jwks: String? = nil, fapi: Bool = false
    ) {
        self.clientId = clientId
        self.name = name
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.secretHash = secretHash
        self.idTokenAlgorithm = idTokenAlgorithm
        self.jwks = jwks
        self.fapi = fapi
    }

    /// A client that proves nothing but its id (PKCE only): neither a secret nor keys.
    package var isPublic: Bool { secretHash == nil && jwks == nil }

    /// Whether its refresh tokens are bound to the DPoP key they were issued under: a public client's (RFC 9449 §5)
    /// and a FAPI client's, whose refresh tokens are not rotated.
    package var bindsRefreshTokens: Bool { isPublic || fapi }
}
