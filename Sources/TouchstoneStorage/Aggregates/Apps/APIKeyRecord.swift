import Foundation

/// An API key of an app, stored as its SHA-256.
package struct APIKeyRecord: Sendable, Equatable {
    package var id: String
    package var clientId: String
    package var createdAt: Date
    package var revokedAt: Date?

    package init(id: String, clientId: String, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.clientId = clientId
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
