import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

/// A browser's web login and a relying service's confirmation, as the device's inbox receives them.
extension LiveServer {
    /// A browser asks to sign in as `username`.
    func startWebLogin(_ username: String = "ana") async throws -> WebLoginStarted {
        try await http(
            "POST", "/v1/web-logins", body: WebLoginRequest(username: username, clientId: LiveServer.demoApp),
            headers: ["User-Agent": "Firefox/140.0"], as: WebLoginStarted.self)
    }

    /// The browser polls its web login.
    func pollWebLogin(_ started: WebLoginStarted) async throws -> WebLoginPoll {
        try await http(
            "GET", "/v1/web-logins/\(started.webLoginId)", headers: ["X-Poll-Secret": started.pollSecret],
            as: WebLoginPoll.self)
    }

    /// A relying service asks `username` to confirm a payment.
    func createConfirmation(apiKey: String, username: String = "ana") async throws -> ConfirmationCreated {
        try await http(
            "POST", "/v1/confirmations",
            body: ConfirmationRequest(
                username: username, text: "Pay €120.00 to ACME Ltd", amount: "120.00", currency: "EUR", payee: "ACME Ltd"),
            headers: ["Authorization": "ApiKey \(apiKey)"], as: ConfirmationCreated.self)
    }

    /// The relying service reads the confirmation.
    func confirmation(_ created: ConfirmationCreated, apiKey: String) async throws -> ConfirmationState {
        try await http(
            "GET", "/v1/confirmations/\(created.confirmationId)", headers: ["Authorization": "ApiKey \(apiKey)"],
            as: ConfirmationState.self)
    }
}
