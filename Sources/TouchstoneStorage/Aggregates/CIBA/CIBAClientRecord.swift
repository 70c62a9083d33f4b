/// How a client registered for OpenID CIBA hears of a decision: it polls the token endpoint, or the server pings its
/// notification endpoint first.
package struct CIBAClientRecord: Sendable, Equatable {
    package enum Mode: String, Sendable {
        case poll, ping
    }

    package var clientId: String
    package var mode: Mode
    /// Where pings go (ping clients only).
    package var notificationEndpoint: String?

    package init(clientId: String, mode: Mode, notificationEndpoint: String?) {
        self.clientId = clientId
        self.mode = mode
        self.notificationEndpoint = notificationEndpoint
    }
}
