import Foundation
import TouchstoneCrypto
import TouchstoneStorage

/// The provider's clients: finding them, checking their redirect URIs and authenticating them (RFC 6749 §2.3,
/// RFC 7523 `private_key_jwt`).
struct ProviderClients: Sendable {
    let store: any ProviderStore
    let clock: any WallClock
    /// The provider's issuer: the `aud` of client assertions.
    let issuer: String

    /// The client with this id, if it is one.
    func client(_ clientId: String) async throws -> OIDCClientRecord? {
        try await store.oidcClient(clientId: clientId)
    }

    /// The client that `credentials` prove, wherever a client authenticates (`/oauth2/token`, `/oauth2/par`,
    /// `/oauth2/bc-authorize`, `/oauth2/revoke`): a confidential client by its secret (Basic or in the form) or by a
    /// client assertion signed with one of its keys, a public one by its id alone.
    ///
    /// An assertion is spent (its `jti`, until its `exp`) once it verifies, whatever the request then does.
    /// - Throws: `invalid_client` for an unknown client, a wrong or missing secret, a secret sent by a public client, a
    ///   client with keys that sends none, or an assertion that does not verify, is not the client's, was spent or
    ///   breaks a rule of its claims (``ClientAssertionClaims``).
    func authenticate(_ credentials: ClientCredentials) async throws -> OIDCClientRecord {
        let usedBasic = credentials.method == .basic
        let refused = OAuthError(.invalidClient, "client authentication failed", usedBasic: usedBasic)
        if case .privateKeyJWT(let assertion) = credentials.method {
            return try await authenticate(assertion: assertion, clientId: credentials.clientId, credentials.endpointURLs)
        }
        guard let clientId = credentials.clientId, let client = try await client(clientId) else { throw refused }
        switch (client.secretHash, credentials.secret) {
        case (let hash?, let secret?):
            guard SecretDigest.constantTimeEquals(SecretDigest.sha256(secret), hash) else { throw refused }
        case (nil, nil):
            // A client with keys is confidential: its id alone proves nothing.
            guard client.jwks == nil else { throw refused }
        case (_?, nil), (nil, _?):
            throw refused
        }
        return client
    }

    /// The client a client assertion proves (RFC 7523 §3, OpenID Connect Core §9): `kid` picks the key when present,
    /// otherwise each key of the client is tried.
    private func authenticate(assertion: String, clientId: String?, _ endpointURLs: [String]) async throws
        -> OIDCClientRecord
    {
        let refused = OAuthError(.invalidClient, "client authentication failed")
        guard let jws = try? CompactJWS(assertion),
            let claimed = clientId ?? (try? jws.unverifiedClaims(as: Subject.self).sub),
            let client = try await client(claimed), let stored = client.jwks,
            let keys = try? ClientKeySet(stored: stored)
        else { throw refused }
        let now = clock.now()
        let expectations = ClientAssertionExpectations(
            clientId: client.clientId, issuer: issuer, endpointURLs: endpointURLs, fapi: client.fapi,
            now: Int64(now.timeIntervalSince1970))
        let rsaAlgorithms: Set<JWSAlgorithm> = client.fapi ? [.ps256] : [.ps256, .rs256]
        let candidates = keys.keys.filter { jws.header.kid == nil || $0.kid == jws.header.kid }
        for candidate in candidates {
            guard let key = try? JWSKey(candidate.publicKey, rsaAlgorithms: rsaAlgorithms),
                let claims = try? jws.verify(as: ClientAssertionClaims.self, with: key, expecting: expectations)
            else { continue }
            let spent = "client:\(client.clientId):\(claims.jti)"
            guard try await store.spendJTI(spent, expiresAt: Date(timeIntervalSince1970: TimeInterval(claims.exp)), now: now)
            else { throw refused }
            return client
        }
        throw refused
    }

    /// The assertion's `sub`, read before verification only to find whose keys to verify it with.
    private struct Subject: Decodable {
        let sub: String
    }
}
