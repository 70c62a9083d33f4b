/// What the authorization endpoint answers.
package enum AuthorizationOutcome: Sendable, Equatable {
    /// The client or its redirect URI cannot be trusted: say why on a page, never redirect (RFC 6749 §4.1.2.1).
    case refused(String)
    /// Back to the client's redirect URI, with a code or an error.
    case redirect(String)
    /// The user must sign in first, on the sign-in page, for the kept request `requestId`.
    case signIn(requestId: String)
}
