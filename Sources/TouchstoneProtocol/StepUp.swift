/// `POST /v1/step-up`, `PUT /v1/account/password` body: the account's password.
public struct PasswordRequest: Codable, Sendable {
    public var password: String

    public init(password: String) {
        self.password = password
    }
}

/// `POST /v1/step-up` answer: a privileged access token of the same session, not refreshable.
public struct StepUpToken: Codable, Sendable, Equatable {
    public var accessToken: String
    public var expiresIn: Int
    public var scope: String

    public init(accessToken: String, expiresIn: Int, scope: String) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.scope = scope
    }
}

/// `PUT /v1/devices/{deviceId}/pin` body.
public struct PINRequest: Codable, Sendable {
    public var pin: String

    public init(pin: String) {
        self.pin = pin
    }
}
