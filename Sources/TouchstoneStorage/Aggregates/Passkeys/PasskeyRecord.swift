import Foundation

/// A registered passkey: WebAuthn's credential record (kept whole as JSON, and in columns where queries need it), the
/// account it signs in to, and what the account page shows.
package struct PasskeyRecord: Sendable, Equatable {
    /// The credential ID, base64url.
    package var credentialId: String
    package var userId: String
    package var name: String
    /// The WebAuthn credential record, JSON; the domain reads and writes it.
    package var credential: String
    /// The credential's signature counter, compared and stored in one statement on each sign-in.
    package var signCount: UInt32
    package var backupEligible: Bool
    package var backupState: Bool
    /// The authenticator's AAGUID, base64url.
    package var aaguid: String
    package var attestationFormat: String
    package var createdAt: Date
    package var lastUsedAt: Date?

    package init(
        credentialId: String, userId: String, name: String, credential: String, signCount: UInt32,
        backupEligible: Bool, backupState: Bool, aaguid: String, attestationFormat: String, createdAt: Date,
        lastUsedAt: Date? = nil
    ) {
        self.credentialId = credentialId
        self.userId = userId
        self.name = name
        self.credential = credential
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
