import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    package func oidcClient(clientId: String) async throws -> OIDCClientRecord? {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT client_id, name, redirect_uris, post_logout_redirect_uris, secret_hash, id_token_alg, jwks, fapi
                FROM oidc_clients WHERE client_id = \(bind: clientId)
                """
            ).first().map { row in
                OIDCClientRecord(
                    clientId: try row.string("client_id"), name: try row.string("name"),
                    redirectURIs: try Self.fromJSON(try row.string("redirect_uris"), as: [String].self),
                    postLogoutRedirectURIs: try Self.fromJSON(try row.string("post_logout_redirect_uris"), as: [String].self),
                    secretHash: try row.optionalString("secret_hash"), idTokenAlgorithm: try row.string("id_token_alg"),
                    jwks: try row.optionalString("jwks"), fapi: try row.int("fapi") != 0)
            }
        }
    }

    package func saveOIDCClient(_ client: OIDCClientRecord) async throws {
        let redirects = try Self.json(client.redirectURIs)
        let postLogout = try Self.json(client.postLogoutRedirectURIs)
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO oidc_clients (
                    client_id, name, redirect_uris, post_logout_redirect_uris, secret_hash, id_token_alg, jwks, fapi)
                VALUES (\(bind: client.clientId), \(bind: client.name), \(bind: redirects), \(bind: postLogout),
                    \(bind: client.secretHash), \(bind: client.idTokenAlgorithm), \(bind: client.jwks),
                    \(bind: client.fapi ? 1 : 0))
                ON CONFLICT (client_id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris,
                    post_logout_redirect_uris = excluded.post_logout_redirect_uris, secret_hash = excluded.secret_hash,
                    id_token_alg = excluded.id_token_alg, jwks = excluded.jwks, fapi = excluded.fapi
                """
            ).run()
        }
    }

    package func createAuthorizationRequest(_ request: AuthorizationRequestRecord) async throws {
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO authorization_requests (id, client_id, parameters, pushed, created_at, expires_at)
                VALUES (\(bind: request.id), \(bind: request.clientId), \(bind: request.parameters),
                    \(bind: request.pushed ? 1 : 0), \(bind: request.createdAt.storedSeconds),
                    \(bind: request.expiresAt.storedSeconds))
                """
            ).run()
        }
    }

    private static let requestColumns = "id, client_id, parameters, pushed, created_at, expires_at"

    package func authorizationRequest(id: String, at now: Date) async throws -> AuthorizationRequestRecord? {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.requestColumns) FROM authorization_requests
                WHERE id = \(bind: id) AND used_at IS NULL AND expires_at > \(bind: now.storedSeconds)
                """
            ).first().map(Self.authorizationRequest)
        }
    }

    package func takeAuthorizationRequest(id: String, clientId: String?, pushed: Bool, at now: Date) async throws
        -> AuthorizationRequestRecord?
    {
        try await provider.write { database in
            try await Self.spendAuthorizationRequest(id: id, clientId: clientId, pushed: pushed, at: now, in: database)
        }
    }

    private static func spendAuthorizationRequest(
        id: String, clientId: String?, pushed: Bool, at now: Date, in database: any SQLDatabase
    ) async throws -> AuthorizationRequestRecord? {
        let client: SQLQueryString = clientId.map { "AND client_id = \(bind: $0)" } ?? ""
        return try await database.raw(
            """
            UPDATE authorization_requests SET used_at = \(bind: now.storedSeconds)
            WHERE id = \(bind: id) AND used_at IS NULL AND expires_at > \(bind: now.storedSeconds)
                AND pushed = \(bind: pushed ? 1 : 0) \(client)
            RETURNING \(unsafeRaw: requestColumns)
            """
        ).first().map(authorizationRequest)
    }

    package func issueAuthorizationCode(
        _ code: AuthorizationCodeRecord, spending requestId: String?,
        newSession: (record: ProviderSessionRecord, tokenHash: String, signIn: String)?, at now: Date
    ) async throws -> Bool {
        do {
            return try await issueAuthorizationCode(code, spending: requestId, newSession: newSession, now: now)
        } catch is NothingStored {
            return false
        }
    }

    /// ``issueAuthorizationCode(_:spending:newSession:at:)``, throwing ``NothingStored`` to roll back.
    private func issueAuthorizationCode(
        _ code: AuthorizationCodeRecord, spending requestId: String?,
        newSession: (record: ProviderSessionRecord, tokenHash: String, signIn: String)?, now: Date
    ) async throws -> Bool {
        try await provider.transaction { database in
            if let requestId,
                try await Self.spendAuthorizationRequest(
                    id: requestId, clientId: code.clientId, pushed: false, at: now, in: database) == nil
            {
                throw NothingStored()
            }
            if let (session, tokenHash, signIn) = newSession {
                // The user's row first (as a password change takes it), then the page's session still live.
                _ = try await database.raw("UPDATE users SET id = id WHERE id = \(bind: session.userId) RETURNING id").first()
                // A sign-in a device approved lives only while that device does: its row stays locked until commit, so
                // that a revocation comes wholly before (nothing stored) or after (and ends this sign-in).
                if let approver = session.approvedBy, !(try await Self.lockActiveDevice(approver, in: database)) {
                    throw NothingStored()
                }
                guard
                    try await database.raw(
                        "SELECT id FROM sessions WHERE id = \(bind: signIn) AND revoked_at IS NULL"
                    ).first() != nil
                else { throw NothingStored() }
                let amr = try Self.json(session.amr)
                try await database.raw(
                    """
                    INSERT INTO provider_sessions (
                        id, token_hash, user_id, amr, acr, auth_time, created_at, expires_at, approved_by)
                    VALUES (\(bind: session.id), \(bind: tokenHash), \(bind: session.userId), \(bind: amr),
                        \(bind: session.acr.rawValue), \(bind: session.authTime.storedSeconds), \(bind: session.createdAt.storedSeconds),
                        \(bind: session.expiresAt.storedSeconds), \(bind: session.approvedBy))
                    """
                ).run()
            }
            try await database.raw(
                """
                INSERT INTO authorization_codes (
                    hash, client_id, redirect_uri, code_challenge, nonce, scope, user_id, provider_session_id, created_at,
                    expires_at, dpop_jkt, authorization_details, txn)
                VALUES (\(bind: code.hash), \(bind: code.clientId), \(bind: code.redirectURI), \(bind: code.codeChallenge),
                    \(bind: code.nonce), \(bind: code.scope), \(bind: code.userId), \(bind: code.providerSessionId),
                    \(bind: code.createdAt.storedSeconds), \(bind: code.expiresAt.storedSeconds), \(bind: code.dpopJKT),
                    \(bind: code.authorizationDetails), \(bind: code.txn))
                """
            ).run()
            return true
        }
    }

    private static let providerSessionColumns =
        "id, user_id, amr, acr, auth_time, created_at, expires_at, ended_at, approved_by"

    package func providerSession(tokenHash: String) async throws -> ProviderSessionRecord? {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.providerSessionColumns) FROM provider_sessions
                WHERE token_hash = \(bind: tokenHash)
                """
            ).first().map(Self.providerSession)
        }
    }

    package func providerSession(id: String) async throws -> ProviderSessionRecord? {
        try await provider.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.providerSessionColumns) FROM provider_sessions WHERE id = \(bind: id)"
            ).first().map(Self.providerSession)
        }
    }

    package func authorizationCode(hash: String) async throws -> AuthorizationCodeRecord? {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT hash, client_id, redirect_uri, code_challenge, nonce, scope, user_id, provider_session_id,
                    created_at, expires_at, used_at, session_id, dpop_jkt, authorization_details, txn
                FROM authorization_codes WHERE hash = \(bind: hash)
                """
            ).first().map { row in
                AuthorizationCodeRecord(
                    hash: try row.string("hash"), clientId: try row.string("client_id"),
                    redirectURI: try row.string("redirect_uri"), codeChallenge: try row.string("code_challenge"),
                    nonce: try row.optionalString("nonce"), scope: try row.string("scope"),
                    userId: try row.string("user_id"), providerSessionId: try row.string("provider_session_id"),
                    createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"),
                    usedAt: try row.optionalDate("used_at"), sessionId: try row.optionalString("session_id"),
                    dpopJKT: try row.optionalString("dpop_jkt"),
                    authorizationDetails: try row.optionalString("authorization_details"),
                    txn: try row.optionalString("txn"))
            }
        }
    }

    package func redeemAuthorizationCode(hash: String, session: SessionRecord, refreshTokenHash: String, at now: Date)
        async throws -> CodeRedemption
    {
        try await provider.transaction { database in
            // The provider session's row is locked while live, so a logout comes before this or after it whole.
            let live = try await database.raw(
                """
                UPDATE provider_sessions SET ended_at = ended_at
                WHERE id = \(bind: session.providerSessionId) AND ended_at IS NULL
                    AND expires_at > \(bind: now.storedSeconds)
                RETURNING id
                """
            ).first() != nil
            guard live else { return .providerSessionEnded }
            // As for a new sign-in: a session a device approved is stored only while the device is active.
            if let approver = session.approvedBy, !(try await Self.lockActiveDevice(approver, in: database)) {
                return .providerSessionEnded
            }
            let spent = try await database.raw(
                """
                UPDATE authorization_codes SET used_at = \(bind: now.storedSeconds), session_id = \(bind: session.id)
                WHERE hash = \(bind: hash) AND used_at IS NULL RETURNING hash
                """
            ).first() != nil
            guard spent else {
                let firstUse = try await database.raw(
                    "SELECT session_id FROM authorization_codes WHERE hash = \(bind: hash)"
                ).first().flatMap { try? $0.optionalString("session_id") }
                if let firstUse {
                    try await Self.revokeSession(id: firstUse, reason: "authorization code reused", at: now, in: database)
                }
                return .reused
            }
            try await Self.insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
            return .redeemed
        }
    }

    package func endProviderSession(id: String, at now: Date) async throws {
        try await provider.transaction { database in
            try await Self.endProviderSession(id: id, at: now, in: database)
        }
    }

    /// Ends a provider session and the sessions issued through it, inside the caller's transaction.
    static func endProviderSession(id: String, at now: Date, in database: any SQLDatabase) async throws {
        try await database.raw(
            """
            UPDATE provider_sessions SET ended_at = \(bind: now.storedSeconds)
            WHERE id = \(bind: id) AND ended_at IS NULL
            """
        ).run()
        try await database.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now.storedSeconds), revoked_reason = 'provider logout'
            WHERE provider_session_id = \(bind: id) AND revoked_at IS NULL
            """
        ).run()
    }

    /// Ends the provider sessions of a user, or those a device approved, inside the caller's transaction.
    static func endProviderSessions(userId: String? = nil, approvedBy deviceId: String? = nil, at now: Date,
        in database: any SQLDatabase) async throws
    {
        try await database.raw(
            """
            UPDATE provider_sessions SET ended_at = \(bind: now.storedSeconds)
            WHERE (user_id = \(bind: userId) OR approved_by = \(bind: deviceId)) AND ended_at IS NULL
            """
        ).run()
    }

    private static func authorizationRequest(_ row: any SQLRow) throws -> AuthorizationRequestRecord {
        AuthorizationRequestRecord(
            id: try row.string("id"), clientId: try row.string("client_id"), parameters: try row.string("parameters"),
            pushed: try row.int("pushed") != 0, createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"))
    }

    private static func providerSession(_ row: any SQLRow) throws -> ProviderSessionRecord {
        ProviderSessionRecord(
            id: try row.string("id"), userId: try row.string("user_id"),
            amr: try fromJSON(try row.string("amr"), as: [AuthenticationMethod].self), acr: AssuranceLevel(rawValue: try row.string("acr")),
            authTime: try row.date("auth_time"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), endedAt: try row.optionalDate("ended_at"),
            approvedBy: try row.optionalString("approved_by"))
    }
}

/// Rolls back a transaction that must store nothing.
private struct NothingStored: Error {}
