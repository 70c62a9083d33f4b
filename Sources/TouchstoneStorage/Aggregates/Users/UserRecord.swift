import Foundation

/// An account.
package struct UserRecord: Sendable, Equatable {
    package var id: String
    package var username: String
    package var passwordHash: String
    package var createdAt: Date

    package init(id: String, username: String, passwordHash: String, createdAt: Date) {
        self.id = id
        self.username = username
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}
