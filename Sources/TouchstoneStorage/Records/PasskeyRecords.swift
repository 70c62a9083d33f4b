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

/// A started WebAuthn ceremony, kept server-side until its single use or its expiry.
package struct CeremonyRecord: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case registration, authentication
    }

    package var id: String
    package var kind: Kind
    /// Registration: the account; authentication: the account named by username, if any.
    package var userId: String?
    /// Registration: the session that started it (only that session may finish it).
    package var sessionId: String?
    /// Registration from a password (`aal1`) session: stored only while the user has no device and no passkey.
    package var firstCredentialOnly: Bool
    /// `RegistrationState` or `AuthenticationState`, JSON.
    package var state: String
    package var expiresAt: Date

    package init(
        id: String,
        kind: Kind,
        userId: String? = nil,
        sessionId: String? = nil,
        firstCredentialOnly: Bool,
        state: String,
        expiresAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.userId = userId
        self.sessionId = sessionId
        self.firstCredentialOnly = firstCredentialOnly
        self.state = state
        self.expiresAt = expiresAt
    }
}

/// What storing a new passkey can meet besides success.
package enum PasskeyInsertion: Sendable, Equatable {
    case stored
    /// The credential ID is registered already (to anyone).
    case credentialExists
    /// A first-credential-only ceremony, but the user has a device or a passkey by now.
    case notFirstCredential
}
