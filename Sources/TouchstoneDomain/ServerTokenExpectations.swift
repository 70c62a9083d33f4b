/// What the tokens this server signed are checked against when they come back (access tokens, ID token hints).
package struct ServerTokenExpectations: Sendable {
    /// The server's ISSUER: the only accepted `iss`.
    package var issuer: String
    /// The current time, NumericDate.
    package var now: Int64
}
