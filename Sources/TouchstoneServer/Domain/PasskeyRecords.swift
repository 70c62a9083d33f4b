import Foundation
import TouchstoneWebAuthn

/// A registered passkey: WebAuthn's credential record, the account it signs in to, and what the account page shows.
struct PasskeyRecord: Sendable, Equatable {
    /// The credential ID, base64url.
    var credentialId: String
    var userId: String
    var name: String
    var credential: Credential
    var createdAt: Date
    var lastUsedAt: Date?
}

/// A started WebAuthn ceremony, kept server-side until its single use or its expiry.
struct CeremonyRecord: Sendable, Equatable {
    enum Kind: String, Sendable {
        case registration, authentication
    }

    var id: String
    var kind: Kind
    /// Registration: the account; authentication: the account named by username, if any.
    var userId: String?
    /// Registration: the session that started it (only that session may finish it).
    var sessionId: String?
    /// Registration from a password (`aal1`) session: stored only while the user has no device and no passkey.
    var firstCredentialOnly: Bool
    /// `RegistrationState` or `AuthenticationState`, JSON.
    var state: String
    var expiresAt: Date
}

/// What storing a new passkey can meet besides success.
enum PasskeyInsertion: Sendable, Equatable {
    case stored
    /// The credential ID is registered already (to anyone).
    case credentialExists
    /// A first-credential-only ceremony, but the user has a device or a passkey by now.
    case notFirstCredential
}
