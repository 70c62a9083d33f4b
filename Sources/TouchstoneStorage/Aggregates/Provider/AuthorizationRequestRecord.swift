import Foundation

/// An authorization request kept server-side: pushed by a client (PAR), or waiting while the user signs in.
package struct AuthorizationRequestRecord: Sendable, Equatable {
    /// The handle: the `request_uri`'s suffix, or the sign-in page's request id.
    package var id: String
    package var clientId: String
    /// The validated parameters, JSON; the domain reads and writes it.
    package var parameters: String
    /// Pushed with PAR (then usable once, as a `request_uri`).
    package var pushed: Bool
    package var createdAt: Date
    package var expiresAt: Date

    package init(id: String, clientId: String, parameters: String, pushed: Bool, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.clientId = clientId
        self.parameters = parameters
        self.pushed = pushed
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
