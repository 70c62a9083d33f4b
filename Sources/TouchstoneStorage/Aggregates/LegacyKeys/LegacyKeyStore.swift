import Foundation

/// Keys of the legacy auth0/TouchIDAuth endpoints. Every method is atomic on its own.
package protocol LegacyKeyStore: Sendable {
    /// Stores a key if the user's password hash is still `passwordHash`; `false` when it changed.
    /// - Throws: ``StoreError/conflict`` when a key with this `sub` exists.
    func createLegacyKey(sub: String, userId: String, publicKey: String, at: Date, passwordHash: String) async throws
        -> Bool
    /// The user and public key (PKCS#1 DER, base64url) registered under `sub`.
    func legacyKey(sub: String) async throws -> (userId: String, publicKey: String)?
}
