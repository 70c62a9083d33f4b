import Foundation

/// An app that is an OpenID Connect client: where it may be sent back, and how it authenticates.
package struct OIDCClientRecord: Sendable, Equatable {
    package var clientId: String
    /// The name the sign-in page shows ("Sign in to …").
    package var name: String
    /// Compared as strings, exactly.
    package var redirectURIs: [String]
    package var postLogoutRedirectURIs: [String]
    /// SHA-256 of the client secret; `nil` for a public client (PKCE only).
    package var secretHash: String?
    /// `RS256` or `ES256`.
    package var idTokenAlgorithm: String

    package init(
        clientId: String, name: String, redirectURIs: [String], postLogoutRedirectURIs: [String], secretHash: String?,
        idTokenAlgorithm: String
    ) {
        self.clientId = clientId
        self.name = name
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.secretHash = secretHash
        self.idTokenAlgorithm = idTokenAlgorithm
    }
}

/// An authorization request kept server-side: pushed by a client (PAR), or waiting while the user signs in.
package struct AuthorizationRequestRecord: Sendable, Equatable {
    /// The handle: the `request_uri`'s suffix, or the sign-in page's request id.
    package var id: String
    package var clientId: String
    /// The validated parameters, JSON; the domain reads and writes it.
    package var parameters: String
    /// Pushed with PAR (then usable once, as a `request_uri`).
    package var pushed: Bool
    package var createdAt: Date
    package var expiresAt: Date

    package init(id: String, clientId: String, parameters: String, pushed: Bool, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.clientId = clientId
        self.parameters = parameters
        self.pushed = pushed
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// The provider session: the browser's sign-in at the provider, named by its one cookie.
package struct ProviderSessionRecord: Sendable, Equatable {
    /// The `sid` of ID tokens.
    package var id: String
    package var userId: String
    package var amr: [String]
    package var acr: String
    package var authTime: Date
    package var createdAt: Date
    /// At most 12 hours after the sign-in.
    package var expiresAt: Date
    package var endedAt: Date?
    /// The device whose approval signed the browser in; the session ends with it.
    package var approvedBy: String?

    package init(
        id: String, userId: String, amr: [String], acr: String, authTime: Date, createdAt: Date, expiresAt: Date,
        endedAt: Date? = nil, approvedBy: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.amr = amr
        self.acr = acr
        self.authTime = authTime
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.endedAt = endedAt
        self.approvedBy = approvedBy
    }
}

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

    package init(
        hash: String, clientId: String, redirectURI: String, codeChallenge: String, nonce: String?, scope: String,
        userId: String, providerSessionId: String, createdAt: Date, expiresAt: Date, usedAt: Date? = nil,
        sessionId: String? = nil
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
    }
}

/// What redeeming an authorization code did.
package enum CodeRedemption: Sendable, Equatable {
    /// The code was spent and the session stored.
    case redeemed
    /// The code had been used: the session its first use made is ended.
    case reused
    /// The provider session behind the code ended meanwhile (logout): nothing stored.
    case providerSessionEnded
}
