import Foundation
import TouchstoneCrypto
import TouchstoneStorage

/// The provider's clients: finding them, checking their redirect URIs and authenticating them (RFC 6749 §2.3).
struct ProviderClients: Sendable {
    let store: any ProviderStore

    /// The client with this id, if it is one.
    func client(_ clientId: String) async throws -> OIDCClientRecord? {
        try await store.oidcClient(clientId: clientId)
    }

    /// The client that `credentials` prove: a confidential client by its secret (Basic or in the form), a public one
    /// by its id alone.
    /// - Throws: `invalid_client` for an unknown client, a wrong or missing secret, or a secret sent by a public
    ///   client.
    func authenticate(_ credentials: ClientCredentials) async throws -> OIDCClientRecord {
        let usedBasic = credentials.method == .basic
        let refused = OAuthError(.invalidClient, "client authentication failed", usedBasic: usedBasic)
        guard let clientId = credentials.clientId, let client = try await client(clientId) else { throw refused }
        switch (client.secretHash, credentials.secret) {
        case (let hash?, let secret?):
            guard SecretDigest.constantTimeEquals(SecretDigest.sha256(secret), hash) else { throw refused }
        case (nil, nil):
            break
        case (_?, nil), (nil, _?):
            throw refused
        }
        return client
    }
}
