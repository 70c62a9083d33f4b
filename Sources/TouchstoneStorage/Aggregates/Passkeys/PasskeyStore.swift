import Foundation

/// Passkeys and the WebAuthn ceremonies that create and use them. Every method is atomic on its own.
package protocol PasskeyStore: Sendable {
    func createCeremony(_ ceremony: CeremonyRecord) async throws
    /// Deletes and returns an unexpired ceremony of this kind started by `sessionId` (`nil`: by no session).
    func consumeCeremony(id: String, kind: CeremonyRecord.Kind, sessionId: String?, now: Date) async throws
        -> CeremonyRecord?
    func passkeys(userId: String) async throws -> [PasskeyRecord]
    /// The account with this username and its passkeys; `nil` for an unknown username.
    func passkeyAccount(username: String) async throws -> (userId: String, passkeys: [PasskeyRecord])?
    func passkey(credentialId: String) async throws -> PasskeyRecord?
    /// Whether the user has an active device or a passkey.
    func hasCredentials(userId: String) async throws -> Bool
    /// In one transaction: stores a new passkey and leaves `notice`; with `firstCredentialOnly`, only while the user has
    /// no active device and no passkey (checked under a lock on the user's row).
    func createPasskey(_ passkey: PasskeyRecord, firstCredentialOnly: Bool, notice: NoticeDraft) async throws
        -> PasskeyInsertion
    /// In one transaction: stores the credential's new counter and backup state, if its stored counter is still
    /// `previousSignCount`, and inserts the session. `false` (nothing stored) when the counter moved meanwhile or
    /// the passkey was removed.
    func acceptPasskeyAuthentication(
        _ passkey: PasskeyRecord, previousSignCount: UInt32, session: SessionRecord, refreshTokenHash: String
    ) async throws -> Bool
    /// In one transaction: deletes the user's passkey and leaves `notice`; `false` (nothing written) when the user has
    /// no such passkey.
    func deletePasskey(credentialId: String, userId: String, notice: NoticeDraft) async throws -> Bool
}
