import Foundation

/// The admin API's tokens. Every method is atomic on its own.
package protocol AdminTokenStore: Sendable {
    /// Stores a new token; `false` (nothing stored) when a live token already has its name.
    func createAdminToken(_ token: AdminTokenRecord, hash: String) async throws -> Bool
    /// Every token, revoked ones included, by name, then oldest first.
    func adminTokens() async throws -> [AdminTokenRecord]
    /// The live token with this SHA-256, after recording that it was used at `at`; `nil` for none.
    func useAdminToken(hash: String, at: Date) async throws -> AdminTokenRecord?
    /// Revokes the live token named `name`; `false` when there is none.
    func revokeAdminToken(name: String, at: Date) async throws -> Bool
}
