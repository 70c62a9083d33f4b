import Foundation

/// `POST /v1/web-logins` body.
public struct WebLoginRequest: Codable, Sendable {
    public var username: String
    public var clientId: String?
    /// The provider's sign-in request (`GET /oauth2/sign-in/{id}`) this login is for, when it carries payment details:
    /// the device's item then shows them and its decision carries their `txn`.
    public var signInRequestId: String?

    public init(username: String, clientId: String? = nil, signInRequestId: String? = nil) {
        self.username = username
        self.clientId = clientId
        self.signInRequestId = signInRequestId
    }
}

/// `POST /v1/web-logins` answer: the number the browser shows, and the secret it polls with.
public struct WebLoginStarted: Codable, Sendable {
    public var webLoginId: String
    public var number: Int
    public var pollSecret: String
    public var expiresAt: Date

    public init(webLoginId: String, number: Int, pollSecret: String, expiresAt: Date) {
        self.webLoginId = webLoginId
        self.number = number
        self.pollSecret = pollSecret
        self.expiresAt = expiresAt
    }
}

/// `GET /v1/web-logins/{id}` answer; `session` comes once, when approved.
public struct WebLoginPoll: Codable, Sendable {
    public var status: DecisionStatus
    public var session: Session?

    public init(status: DecisionStatus, session: Session? = nil) {
        self.status = status
        self.session = session
    }
}
