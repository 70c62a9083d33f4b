import Foundation

/// Recovery codes (SHA-256 digests) and the administrator's reset of a user. Every method is atomic on its own.
package protocol RecoveryStore: Sendable {
    /// In one transaction, under a lock on the user's row: replaces every recovery code of the user with `hashes` and
    /// leaves `notice`.
    func replaceRecoveryCodes(userId: String, hashes: [String], at: Date, notice: NoticeDraft) async throws
    /// The digests of the user's unused recovery codes.
    func unusedRecoveryCodeHashes(userId: String) async throws -> [String]
    /// Whether the user has a passkey or an unused recovery code (the ways in that need no device).
    func hasRecoveryCredentials(userId: String) async throws -> Bool
    /// In one transaction: revokes every device of the user (ending the sessions and provider sessions they approved),
    /// deletes their passkeys and legacy keys, ends every session and provider session, cancels every unfinished
    /// enrolment and spends every recovery code; `user.reset` is queued for the webhooks.
    func resetUser(userId: String, at: Date) async throws
}
