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

    public init(userId: String, username: String, createdAt: Date) {
        self.userId = userId
        self.username = username
        self.createdAt = createdAt
    }
}

/// `POST /v1/sessions/password` and `POST /v1/enrollments` body.
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
