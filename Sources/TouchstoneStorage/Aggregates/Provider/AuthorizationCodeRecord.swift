import Foundation

/// An authorization code, stored as its SHA-256, with everything the token endpoint checks and issues from it.
package struct AuthorizationCodeRecord: Sendable, Equatable {
    package var hash: String
    package var clientId: String
    package var redirectURI: String
    /// The PKCE `code_challenge` (S256).
    package var codeChallenge: String
    package var nonce: String?
    package var scope: String
    package var userId: String
    package var providerSessionId: String
    package var createdAt: Date
    package var expiresAt: Date
    package var usedAt: Date?
    /// The session its first use made, which a second use ends.
    package var sessionId: String?
    /// The DPoP key (RFC 7638 thumbprint) the code may be exchanged with only.
    package var dpopJKT: String?
    /// The `authorization_details` a device approved at sign-in (as the client sent them), and their `txn`.
    package var authorizationDetails: String?
    package var txn: String?

    package init(
        hash: String, clientId: String, redirectURI: String, codeChallenge: String, nonce: String?, scope: String,
        userId: String, providerSessionId: String, createdAt: Date, expiresAt: Date, usedAt: Date? = nil,
        sessionId: String? = nil, dpopJKT: String? = nil, authorizationDetails: String? = nil, txn: String? = nil
    ) {
        self.hash = hash
        self.clientId = clientId
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.nonce = nonce
        self.scope = scope
        self.userId = userId
        self.providerSessionId = providerSessionId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.sessionId = sessionId
        self.dpopJKT = dpopJKT
        self.authorizationDetails = authorizationDetails
        self.txn = txn
    }
}
