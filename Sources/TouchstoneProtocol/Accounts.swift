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
