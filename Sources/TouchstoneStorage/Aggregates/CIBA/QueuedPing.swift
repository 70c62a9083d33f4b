import Foundation

/// One CIBA ping waiting in the outbox, claimed for sending: `{"auth_req_id"}` to the client's notification endpoint
/// with its bearer token.
package struct QueuedPing: OutboxMessage, Equatable {
    /// The request's id.
    package var id: String
    package var endpoint: String
    package var authRequestId: String
    package var token: String
    /// When the request expires: no try after it.
    package var expiresAt: Date
    /// Tries made before this one.
    package var attempts: Int

    package init(id: String, endpoint: String, authRequestId: String, token: String, expiresAt: Date, attempts: Int) {
        self.id = id
        self.endpoint = endpoint
        self.authRequestId = authRequestId
        self.token = token
        self.expiresAt = expiresAt
        self.attempts = attempts
    }
}
