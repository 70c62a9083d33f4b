import Foundation

/// Accounts and their passwords. Every method is atomic on its own.
package protocol UserStore: Sendable {
    /// - Throws: ``StoreError/conflict`` when the username is taken.
    func createUser(_ user: UserRecord) async throws
    func user(username: String) async throws -> UserRecord?
    func user(id: String) async throws -> UserRecord?
    func users() async throws -> [UserRecord]
    /// In one transaction: sets the user's password hash, ends every other session of the user and leaves `notice`.
    func setPassword(
        userId: String, passwordHash: String, keepingSession sessionId: String, at: Date, notice: NoticeDraft
    ) async throws
}
