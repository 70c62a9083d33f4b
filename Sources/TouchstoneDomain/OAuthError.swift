/// A refusal of the OpenID Connect provider, in OAuth's terms (RFC 6749 §4.1.2.1 and §5.2, OpenID Connect Core
/// §3.1.2.6, RFC 6750 §3.1): a code and a description the client may show. The HTTP layer decides how it travels
/// (a redirect to the client, a JSON answer, a page).
package struct OAuthError: Error, Sendable, Equatable {
    package enum Code: String, Sendable {
        case invalidRequest = "invalid_request"
        case invalidClient = "invalid_client"
        case invalidGrant = "invalid_grant"
        case unauthorizedClient = "unauthorized_client"
        case unsupportedGrantType = "unsupported_grant_type"
        case unsupportedResponseType = "unsupported_response_type"
        case invalidScope = "invalid_scope"
        case loginRequired = "login_required"
        /// OpenID Connect Core §3.1.2.6: `prompt=none` where the page must be shown (payment details).
        case interactionRequired = "interaction_required"
        case accessDenied = "access_denied"
        case invalidToken = "invalid_token"
        case temporarilyUnavailable = "temporarily_unavailable"
        /// RFC 9449 §5 and §7.1.
        case invalidDPoPProof = "invalid_dpop_proof"
        /// OpenID CIBA Core §13 and §11.
        case invalidBindingMessage = "invalid_binding_message"
        case authorizationPending = "authorization_pending"
        case slowDown = "slow_down"
        case expiredToken = "expired_token"
        /// RFC 9396 §5.
        case invalidAuthorizationDetails = "invalid_authorization_details"
    }

    package var code: Code
    package var description: String
    /// An `invalid_client` refusal of a client that authenticated with HTTP Basic (it gets a Basic challenge).
    package var usedBasic = false
    /// A refusal at a protected resource (userinfo) of a DPoP-bound token or a DPoP request: it gets a DPoP challenge
    /// (RFC 9449 §7.1) rather than a Bearer one.
    package var dpopChallenge = false

    package init(_ code: Code, _ description: String, usedBasic: Bool = false, dpopChallenge: Bool = false) {
        self.code = code
        self.description = description
        self.usedBasic = usedBasic
        self.dpopChallenge = dpopChallenge
    }

    package static func invalidRequest(_ description: String) -> OAuthError {
        OAuthError(.invalidRequest, description)
    }

    package static func invalidGrant(_ description: String) -> OAuthError {
        OAuthError(.invalidGrant, description)
    }
}
