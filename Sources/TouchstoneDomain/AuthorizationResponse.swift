import TouchstoneProtocol

/// The redirect back to a client (RFC 6749 §4.1.2): its redirect URI with the response in the query, `state` echoed
/// and `iss` added (RFC 9207).
enum AuthorizationResponse {
    static func success(code: String, to parameters: AuthorizationParameters, issuer: String) -> String {
        redirect(to: parameters.redirectURI, [("code", code), ("state", parameters.state), ("iss", issuer)])
    }

    static func failure(_ error: OAuthError, redirectURI: String, state: String?, issuer: String) -> String {
        redirect(
            to: redirectURI,
            [("error", error.code.rawValue), ("error_description", error.description), ("state", state), ("iss", issuer)])
    }

    /// `uri` with `parameters` (those with a value) form-encoded after its own query, if any.
    static func redirect(to uri: String, _ parameters: [(String, String?)]) -> String {
        let query = parameters.compactMap { name, value in value.map { "\(name)=\(PercentEncoding.unreserved($0))" } }
            .joined(separator: "&")
        return uri + (uri.contains("?") ? "&" : "?") + query
    }
}
