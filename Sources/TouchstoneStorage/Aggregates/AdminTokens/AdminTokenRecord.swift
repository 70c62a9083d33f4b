import Foundation

/// An admin token of the admin API, stored as its SHA-256; its name is unique among live (unrevoked) tokens.
package struct AdminTokenRecord: Sendable, Equatable {
    package var id: String
    package var name: String
    /// `read` or `write`.
    package var scope: String
    package var createdAt: Date
    package var lastUsedAt: Date?
    package var revokedAt: Date?

    package init(
        id: String, name: String, scope: String, createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.scope = scope
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}
