/// One endpoint of the protocol: its method and its path template, written once for the server's router, the SDK,
/// the bench and the tests. Templates name their parameters as `openapi.yaml` does: `/v1/devices/{deviceId}`.
public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    public let method: String
    /// The path with `{name}` for each parameter.
    public let template: String

    public init(_ method: String, _ template: String) {
        self.method = method
        self.template = template
    }

    public var description: String { "\(method) \(template)" }

    /// The path with `values` in place of the template's parameters, in order, each percent-encoded as one segment.
    /// - Precondition: as many values as the template has parameters.
    public func path(_ values: String...) -> String {
        path(values: values)
    }

    /// ``path(_:)`` with the values in an array.
    public func path(values: [String]) -> String {
        var values = values.makeIterator()
        return segments.map { segment in
            guard segment.hasPrefix("{") else { return segment }
            return PercentEncoding.unreserved(values.next() ?? "")
        }.joined(separator: "/")
    }

    /// The template as a router pattern: no leading slash, `:name` for each parameter.
    public var routerPattern: String {
        segments.dropFirst().map { segment in
            segment.hasPrefix("{") ? ":" + segment.dropFirst().dropLast() : segment
        }.joined(separator: "/")
    }

    /// The template's segments, the first one empty (the leading slash).
    private var segments: [String] {
        template.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }
}

extension Endpoint {
    public static let health = Endpoint("GET", "/healthz")
    public static let openAPI = Endpoint("GET", "/openapi.yaml")
    public static let jwks = Endpoint("GET", "/.well-known/jwks.json")
    public static let policy = Endpoint("GET", "/v1/apps/{clientId}/policy")

    public static let createAccount = Endpoint("POST", "/v1/accounts")
    public static let account = Endpoint("GET", "/v1/account")
    public static let setPassword = Endpoint("PUT", "/v1/account/password")
    public static let createRecoveryCodes = Endpoint("POST", "/v1/account/recovery-codes")
    public static let accountNotices = Endpoint("GET", "/v1/account/notices")

    public static let startEnrollment = Endpoint("POST", "/v1/enrollments")
    public static let completeEnrollment = Endpoint("POST", "/v1/enrollments/{enrollmentId}/complete")
    public static let pollEnrollment = Endpoint("GET", "/v1/enrollments/{enrollmentId}")
    public static let decideEnrollment = Endpoint("POST", "/v1/enrollments/{enrollmentId}/decision")

    public static let passwordSession = Endpoint("POST", "/v1/sessions/password")
    public static let challenge = Endpoint("POST", "/v1/challenges")
    public static let login = Endpoint("POST", "/v1/sessions")
    public static let refresh = Endpoint("POST", "/v1/sessions/refresh")
    public static let logout = Endpoint("DELETE", "/v1/sessions/current")
    public static let sessions = Endpoint("GET", "/v1/sessions")
    public static let endSession = Endpoint("DELETE", "/v1/sessions/{sessionId}")
    public static let stepUp = Endpoint("POST", "/v1/step-up")

    public static let devices = Endpoint("GET", "/v1/devices")
    public static let removeDevice = Endpoint("DELETE", "/v1/devices/{deviceId}")
    public static let optOut = Endpoint("DELETE", "/v1/devices/{deviceId}/biometric-key")
    public static let setPIN = Endpoint("PUT", "/v1/devices/{deviceId}/pin")
    public static let inbox = Endpoint("GET", "/v1/devices/{deviceId}/inbox")
    public static let inboxItem = Endpoint("GET", "/v1/devices/{deviceId}/inbox/{itemId}")
    public static let dismissNotice = Endpoint("DELETE", "/v1/devices/{deviceId}/inbox/{itemId}")
    /// The device's push registration (PROTOCOL.md "Push notifications").
    public static let registerPush = Endpoint("PUT", "/v1/devices/{deviceId}/push")
    public static let pushRegistration = Endpoint("GET", "/v1/devices/{deviceId}/push")
    public static let removePushRegistration = Endpoint("DELETE", "/v1/devices/{deviceId}/push")

    public static let createConfirmation = Endpoint("POST", "/v1/confirmations")
    public static let confirmation = Endpoint("GET", "/v1/confirmations/{confirmationId}")
    public static let decideConfirmation = Endpoint("POST", "/v1/confirmations/{confirmationId}/decision")

    public static let startWebLogin = Endpoint("POST", "/v1/web-logins")
    public static let pollWebLogin = Endpoint("GET", "/v1/web-logins/{webLoginId}")
    public static let decideWebLogin = Endpoint("POST", "/v1/web-logins/{webLoginId}/decision")
    /// A device's decision on a CIBA request (PROTOCOL.md "Decoupled authorization").
    public static let decideBackchannel = Endpoint("POST", "/v1/ciba/{cibaId}/decision")

    public static let introspect = Endpoint("POST", "/v1/introspect")

    public static let passkeyRegistrationOptions = Endpoint("POST", "/v1/webauthn/registration/options")
    public static let passkeyRegistrationVerify = Endpoint("POST", "/v1/webauthn/registration/verify")
    public static let passkeyAuthenticationOptions = Endpoint("POST", "/v1/webauthn/authentication/options")
    public static let passkeyAuthenticationVerify = Endpoint("POST", "/v1/webauthn/authentication/verify")
    public static let passkeys = Endpoint("GET", "/v1/webauthn/credentials")
    public static let removePasskey = Endpoint("DELETE", "/v1/webauthn/credentials/{credentialId}")

    /// The OpenID Connect provider (PROTOCOL.md "OpenID Connect provider").
    public static let openIDConfiguration = Endpoint("GET", "/.well-known/openid-configuration")
    public static let oauthAuthorize = Endpoint("GET", "/oauth2/authorize")
    public static let oauthPushedRequest = Endpoint("POST", "/oauth2/par")
    public static let oauthToken = Endpoint("POST", "/oauth2/token")
    public static let oauthUserInfo = Endpoint("GET", "/oauth2/userinfo")
    public static let oauthUserInfoPost = Endpoint("POST", "/oauth2/userinfo")
    public static let oauthLogout = Endpoint("GET", "/oauth2/logout")
    public static let oauthLogoutPost = Endpoint("POST", "/oauth2/logout")
    /// The user's "Sign out of Touchstone?" answer, from the page that logout shows.
    public static let oauthLogoutConfirm = Endpoint("POST", "/oauth2/logout/confirm")
    public static let oauthRevoke = Endpoint("POST", "/oauth2/revoke")
    /// OpenID CIBA's backchannel authentication endpoint.
    public static let oauthBackchannel = Endpoint("POST", "/oauth2/bc-authorize")
    /// The sign-in page's side of an authorization: what it asks, and its outcome.
    public static let oauthSignInRequest = Endpoint("GET", "/oauth2/sign-in/{requestId}")
    public static let oauthSignInComplete = Endpoint("POST", "/oauth2/sign-in/{requestId}/complete")
    public static let oauthSignInCancel = Endpoint("POST", "/oauth2/sign-in/{requestId}/cancel")

    /// auth0/TouchIDAuth's, served only with `serve --touchidauth-compat`.
    public static let legacyRegisterKey = Endpoint("POST", "/pubkey")
    public static let legacyLogin = Endpoint("POST", "/login")

    /// Every endpoint of the protocol.
    public static let all: [Endpoint] = [
        health, openAPI, jwks, policy, createAccount, account, setPassword, createRecoveryCodes, accountNotices,
        startEnrollment, completeEnrollment, pollEnrollment, decideEnrollment, passwordSession, challenge, login,
        refresh, logout, sessions, endSession, stepUp, devices, removeDevice, optOut, setPIN, inbox, inboxItem,
        dismissNotice, registerPush, pushRegistration, removePushRegistration, createConfirmation, confirmation,
        decideConfirmation, startWebLogin, pollWebLogin, decideWebLogin, decideBackchannel, introspect,
        passkeyRegistrationOptions, passkeyRegistrationVerify, passkeyAuthenticationOptions,
        passkeyAuthenticationVerify, passkeys, removePasskey, openIDConfiguration, oauthAuthorize, oauthPushedRequest,
        oauthToken, oauthUserInfo, oauthUserInfoPost, oauthLogout, oauthLogoutPost, oauthLogoutConfirm, oauthRevoke,
        oauthBackchannel, oauthSignInRequest, oauthSignInComplete, oauthSignInCancel, legacyRegisterKey, legacyLogin,
    ]
}
