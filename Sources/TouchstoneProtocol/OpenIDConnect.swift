import Foundation

/// `GET /.well-known/openid-configuration`: the provider's metadata (OpenID Connect Discovery 1.0, RFC 8414).
public struct OpenIDConfiguration: Codable, Sendable, Equatable {
    public var issuer: String
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var userinfoEndpoint: String
    public var jwksUri: String
    public var endSessionEndpoint: String
    public var pushedAuthorizationRequestEndpoint: String
    public var revocationEndpoint: String
    public var responseTypesSupported = ["code"]
    public var responseModesSupported = ["query"]
    public var grantTypesSupported = ["authorization_code", "refresh_token", BackchannelAuthentication.grantType]
    public var subjectTypesSupported = ["public"]
    public var idTokenSigningAlgValuesSupported = ["RS256", "ES256"]
    public var tokenEndpointAuthMethodsSupported = ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]
    public var revocationEndpointAuthMethodsSupported = [
        "client_secret_basic", "client_secret_post", "private_key_jwt", "none",
    ]
    /// What client assertions (`private_key_jwt`) may be signed with; RS256 only by clients without `--fapi`.
    public var tokenEndpointAuthSigningAlgValuesSupported = ["ES256", "PS256", "EdDSA", "RS256"]
    /// What DPoP proofs (RFC 9449 §5.1) may be signed with.
    public var dpopSigningAlgValuesSupported = Self.dpopAlgorithms
    public var codeChallengeMethodsSupported = ["S256"]
    public var scopesSupported = ["openid", "profile", "offline_access"]
    public var claimsSupported = [
        "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "at_hash", "sid", "preferred_username",
    ]
    public var acrValuesSupported = AssuranceLevel.all
    public var promptValuesSupported = ["none", "login"]
    public var authorizationResponseIssParameterSupported = true
    public var requestParameterSupported = false
    public var requestUriParameterSupported = false
    /// OpenID CIBA (Core 1.0 §4) and RFC 9396 §10.
    public var backchannelAuthenticationEndpoint: String
    public var backchannelTokenDeliveryModesSupported = ["poll", "ping"]
    public var backchannelUserCodeParameterSupported = false
    public var authorizationDetailsTypesSupported = ["payment_initiation"]

    /// The algorithms of DPoP proofs, as discovery and a DPoP challenge's `algs` list them.
    public static let dpopAlgorithms = ["ES256", "PS256", "EdDSA"]

    /// The metadata of the provider at `issuer` (no trailing slash).
    public init(issuer: String) {
        self.issuer = issuer
        authorizationEndpoint = issuer + Endpoint.oauthAuthorize.template
        tokenEndpoint = issuer + Endpoint.oauthToken.template
        userinfoEndpoint = issuer + Endpoint.oauthUserInfo.template
        jwksUri = issuer + Endpoint.jwks.template
        endSessionEndpoint = issuer + Endpoint.oauthLogout.template
        pushedAuthorizationRequestEndpoint = issuer + Endpoint.oauthPushedRequest.template
        revocationEndpoint = issuer + Endpoint.oauthRevoke.template
        backchannelAuthenticationEndpoint = issuer + Endpoint.oauthBackchannel.template
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case jwksUri = "jwks_uri"
        case endSessionEndpoint = "end_session_endpoint"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case responseTypesSupported = "response_types_supported"
        case responseModesSupported = "response_modes_supported"
        case grantTypesSupported = "grant_types_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case tokenEndpointAuthSigningAlgValuesSupported = "token_endpoint_auth_signing_alg_values_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case scopesSupported = "scopes_supported"
        case claimsSupported = "claims_supported"
        case acrValuesSupported = "acr_values_supported"
        case promptValuesSupported = "prompt_values_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case requestParameterSupported = "request_parameter_supported"
        case requestUriParameterSupported = "request_uri_parameter_supported"
        case backchannelAuthenticationEndpoint = "backchannel_authentication_endpoint"
        case backchannelTokenDeliveryModesSupported = "backchannel_token_delivery_modes_supported"
        case backchannelUserCodeParameterSupported = "backchannel_user_code_parameter_supported"
        case authorizationDetailsTypesSupported = "authorization_details_types_supported"
    }
}

/// `POST /oauth2/token` answer (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3).
public struct OAuthTokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    public var tokenType = "Bearer"
    public var expiresIn: Int
    public var idToken: String
    public var scope: String
    /// Only when `offline_access` was granted.
    public var refreshToken: String?
    /// The granted `authorization_details` (RFC 9396 §7), when they were asked for.
    public var authorizationDetails: JSONValue?

    public init(
        accessToken: String, expiresIn: Int, idToken: String, scope: String, refreshToken: String?,
        authorizationDetails: JSONValue? = nil
    ) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.idToken = idToken
        self.scope = scope
        self.refreshToken = refreshToken
        self.authorizationDetails = authorizationDetails
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case idToken = "id_token"
        case scope
        case refreshToken = "refresh_token"
        case authorizationDetails = "authorization_details"
    }
}

/// An OAuth error answer (RFC 6749 §5.2): both members always present.
public struct OAuthErrorResponse: Codable, Sendable, Equatable {
    public var error: String
    public var errorDescription: String

    public init(error: String, errorDescription: String) {
        self.error = error
        self.errorDescription = errorDescription
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

/// `POST /oauth2/par` answer (RFC 9126 §2.2).
public struct PushedAuthorizationResponse: Codable, Sendable, Equatable {
    public var requestUri: String
    public var expiresIn: Int

    public init(requestUri: String, expiresIn: Int) {
        self.requestUri = requestUri
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case requestUri = "request_uri"
        case expiresIn = "expires_in"
    }
}

/// `GET|POST /oauth2/userinfo` answer.
public struct UserInfo: Codable, Sendable, Equatable {
    public var sub: String
    /// Only with scope `profile`.
    public var preferredUsername: String?

    public init(sub: String, preferredUsername: String?) {
        self.sub = sub
        self.preferredUsername = preferredUsername
    }

    enum CodingKeys: String, CodingKey {
        case sub
        case preferredUsername = "preferred_username"
    }
}

/// `GET /oauth2/sign-in/{requestId}`: what the sign-in page shows while a site waits for the user.
public struct SignInRequest: Codable, Sendable, Equatable {
    public var requestId: String
    public var clientId: String
    /// The site's display name.
    public var clientName: String
    /// `aal2` when the site accepts only a passkey or a phone approval.
    public var requiredAcr: AssuranceLevel
    /// The site's `login_hint`, if any.
    public var loginHint: String?
    public var expiresAt: Date
    /// The payment the site asks for (RFC 9396 `authorization_details`, as it sent them): only a phone's approval,
    /// started for this request (``WebLoginRequest/signInRequestId``), grants it.
    public var authorizationDetails: JSONValue?

    public init(
        requestId: String, clientId: String, clientName: String, requiredAcr: AssuranceLevel, loginHint: String?,
        expiresAt: Date, authorizationDetails: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.clientId = clientId
        self.clientName = clientName
        self.requiredAcr = requiredAcr
        self.loginHint = loginHint
        self.expiresAt = expiresAt
        self.authorizationDetails = authorizationDetails
    }
}

/// `POST /oauth2/sign-in/{requestId}/complete|cancel` answer: where the browser goes next (the site's redirect URI
/// with the code or the error).
public struct SignInRedirect: Codable, Sendable, Equatable {
    public var redirectTo: String

    public init(redirectTo: String) {
        self.redirectTo = redirectTo
    }
}
