import Foundation

/// The OpenID Connect provider's clients, authorization requests, provider sessions and codes. Every method is atomic
/// on its own.
package protocol ProviderStore: Sendable {
    func oidcClient(clientId: String) async throws -> OIDCClientRecord?
    /// Inserts or replaces the OIDC registration of an existing app.
    func saveOIDCClient(_ client: OIDCClientRecord) async throws
    func createAuthorizationRequest(_ request: AuthorizationRequestRecord) async throws
    /// An unused request that has not expired at `now`.
    func authorizationRequest(id: String, at now: Date) async throws -> AuthorizationRequestRecord?
    /// Spends an unused, unexpired request of `clientId` (a pushed one, or one waiting for a sign-in) in one
    /// conditional statement; `nil` when there is none such.
    func takeAuthorizationRequest(id: String, clientId: String?, pushed: Bool, at now: Date) async throws
        -> AuthorizationRequestRecord?
    /// In one transaction: spends the sign-in request `spending` (when given), stores `newSession` (when given, while
    /// the page's session `signIn` is live: the user's row is locked, so a password change comes before or after it
    /// whole) and `code`.
    /// - Returns: `false`, with nothing stored, when the request was spent, expired or unknown, or the page's session
    ///   ended.
    func issueAuthorizationCode(
        _ code: AuthorizationCodeRecord, spending requestId: String?,
        newSession: (record: ProviderSessionRecord, tokenHash: String, signIn: String)?, at now: Date
    ) async throws -> Bool
    /// The provider session whose cookie has this SHA-256, ended or not.
    func providerSession(tokenHash: String) async throws -> ProviderSessionRecord?
    func providerSession(id: String) async throws -> ProviderSessionRecord?
    func authorizationCode(hash: String) async throws -> AuthorizationCodeRecord?
    /// In one transaction: spends the code and stores `session`, made from it, while its provider session is live
    /// (its row locked, so a logout comes before or after it whole). A code used before ends the session of its first
    /// use instead; when the provider session has ended, nothing is stored.
    func redeemAuthorizationCode(hash: String, session: SessionRecord, refreshTokenHash: String, at now: Date)
        async throws -> CodeRedemption
    /// Ends a provider session and every session issued through it.
    func endProviderSession(id: String, at now: Date) async throws
    /// Replaces the JWK Set of an OIDC client.
    /// - Returns: `false` when no OIDC client has this id.
    func setClientJWKS(clientId: String, jwks: String) async throws -> Bool
    /// Records a `jti` (already namespaced) as spent until `expiresAt`, in one statement.
    /// - Returns: `false` when it was spent before and has not yet expired at `now`.
    func spendJTI(_ id: String, expiresAt: Date, now: Date) async throws -> Bool
}
