import Foundation

/// `POST /v1/accounts` body.
public struct CreateAccountRequest: Codable, Sendable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// `POST /v1/accounts` answer.
public struct CreateAccountResponse: Codable, Sendable {
    public var userId: String

    public init(userId: String) {
        self.userId = userId
    }
}

/// `GET /v1/account`: whom an access token signs in (a passkey session started without a username says so here).
public struct AccountProfile: Codable, Sendable, Equatable {
    public var userId: String
    public var username: String
    public var createdAt: Date
    /// How many of the account's recovery codes are still unused (0 when it has none).
    public var recoveryCodesRemaining: Int

    public init(userId: String, username: String, createdAt: Date, recoveryCodesRemaining: Int = 0) {
        self.userId = userId
        self.username = username
        self.createdAt = createdAt
        self.recoveryCodesRemaining = recoveryCodesRemaining
    }
}

/// `POST /v1/sessions/password` body (and `POST /v1/enrollments` without a recovery code).
public struct PasswordLoginRequest: Codable, Sendable {
    public var clientId: String
    public var username: String
    public var password: String

    public init(clientId: String, username: String, password: String) {
        self.clientId = clientId
        self.username = username
        self.password = password
    }
}

/// `POST /v1/enrollments` body: the password, and a recovery code when the user has no device at hand to approve.
public struct EnrollmentStartRequest: Codable, Sendable {
    public var clientId: String
    public var username: String
    public var password: String
    /// One of the account's unused recovery codes (`xxxx-xxxx-xxxx`, any case, hyphens optional); spent when the
    /// enrolment completes, which then needs no other device's approval.
    public var recoveryCode: String?

    public init(clientId: String, username: String, password: String, recoveryCode: String? = nil) {
        self.clientId = clientId
        self.username = username
        self.password = password
        self.recoveryCode = recoveryCode
    }
}

/// `POST /v1/account/recovery-codes` answer: ten new codes, shown this once; they replace any earlier set.
public struct RecoveryCodes: Codable, Sendable, Equatable {
    public var codes: [String]

    public init(codes: [String]) {
        self.codes = codes
    }
}
