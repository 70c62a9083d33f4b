/// How an access token came to a protected resource: `Authorization: Bearer` (RFC 6750 §2.1) or `Authorization: DPoP`
/// with the request's proof (RFC 9449 §7.1).
package struct AccessTokenPresentation: Sendable {
    /// The access token.
    package var token: String
    /// The request's DPoP proof and what it must name, when the token came as `DPoP`; `nil` for `Bearer`.
    package var dpop: DPoPRequest?

    package init(token: String, dpop: DPoPRequest?) {
        self.token = token
        self.dpop = dpop
    }
}
