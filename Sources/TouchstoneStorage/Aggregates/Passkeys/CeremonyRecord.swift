import Foundation

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
