import TouchstoneStorage

/// Where CIBA pings are sent: the clients' notification endpoints (``PingClient``), or a stand-in in tests.
package protocol PingGateway: Sendable {
    /// One try: `POST` `{"auth_req_id"}` to the ping's endpoint with `Authorization: Bearer <client_notification_token>`.
    func ping(_ ping: QueuedPing) async -> PingAnswer
}
