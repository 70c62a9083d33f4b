/// What an audit event records: one name per audited action, each spelled once, here. The names are what
/// `admin audit` prints and what the `audit_events.event` column holds.
///
/// A struct rather than an enum, like `ProblemCode`: events read back from a database written by a later version
/// keep their names.
public struct AuditEventType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    // Accounts and passwords.
    public static let accountCreate = Self(rawValue: "account.create")
    public static let accountSetPassword = Self(rawValue: "account.set_password")
    public static let passwordLogin = Self(rawValue: "login.password")
    public static let stepUp = Self(rawValue: "step_up")
    public static let recoveryCodesCreate = Self(rawValue: "recovery_codes.create")

    // Devices: enrolment, login, sessions.
    public static let enrollmentStart = Self(rawValue: "enrollment.start")
    public static let enrollmentComplete = Self(rawValue: "enrollment.complete")
    public static let enrollmentDecide = Self(rawValue: "enrollment.decide")
    public static let challenge = Self(rawValue: "challenge")
    public static let login = Self(rawValue: "login")
    public static let refresh = Self(rawValue: "refresh")
    public static let sessionEnd = Self(rawValue: "session.end")
    public static let deviceOptOut = Self(rawValue: "device.opt_out")
    public static let deviceRevoke = Self(rawValue: "device.revoke")
    public static let deviceSetPIN = Self(rawValue: "device.set_pin")

    // Requests decided on a device.
    public static let confirmationCreate = Self(rawValue: "confirmation.create")
    public static let confirmationDecide = Self(rawValue: "confirmation.decide")
    public static let webLoginStart = Self(rawValue: "web_login.start")
    public static let webLoginDecide = Self(rawValue: "web_login.decide")

    // Passkeys.
    public static let passkeyRegisterStart = Self(rawValue: "passkey.register.start")
    public static let passkeyRegister = Self(rawValue: "passkey.register")
    public static let passkeyLogin = Self(rawValue: "passkey.login")
    public static let passkeyRemove = Self(rawValue: "passkey.remove")

    // The OpenID Connect provider.
    public static let oidcAuthorize = Self(rawValue: "oidc.authorize")
    public static let oidcToken = Self(rawValue: "oidc.token")
    public static let oidcLogout = Self(rawValue: "oidc.logout")
    public static let cibaAuthorize = Self(rawValue: "ciba.authorize")
    public static let cibaDecide = Self(rawValue: "ciba.decide")

    // Legacy TouchIDAuth clients.
    public static let legacyPubkey = Self(rawValue: "legacy.pubkey")
    public static let legacyLogin = Self(rawValue: "legacy.login")

    // Administrators.
    public static let adminAppSave = Self(rawValue: "admin.app.save")
    public static let adminAppPush = Self(rawValue: "admin.app.push")
    public static let adminOIDCClientSave = Self(rawValue: "admin.oidc_client.save")
    public static let adminAPIKeyCreate = Self(rawValue: "admin.api_key.create")
    public static let adminAPIKeyRevoke = Self(rawValue: "admin.api_key.revoke")
    public static let adminUserReset = Self(rawValue: "admin.user.reset")
    public static let adminSigningKeyRotate = Self(rawValue: "admin.signing_key.rotate")
    public static let adminAppDelete = Self(rawValue: "admin.app.delete")
    public static let adminOIDCClientSecret = Self(rawValue: "admin.oidc_client.secret")
    public static let adminTokenCreate = Self(rawValue: "admin.token.create")
    public static let adminTokenRevoke = Self(rawValue: "admin.token.revoke")
    public static let adminWebhookCreate = Self(rawValue: "admin.webhook.create")
    public static let adminWebhookDelete = Self(rawValue: "admin.webhook.delete")
    public static let adminWebhookTest = Self(rawValue: "admin.webhook.test")
}
