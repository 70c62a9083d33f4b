import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The admin API's bearer tokens: `tsa_` and 32 random bytes, shown once and stored as their SHA-256, each with a
/// name (unique among live tokens) and a scope.
package struct AdminTokenService: Sendable {
    typealias Store = AdminTokenStore & AuditStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    let audit: AdminAudit

    /// What every admin token starts with.
    static let prefix = "tsa_"

    /// Makes a token; the answer is the only place it is ever shown.
    /// - Throws: `invalid_request` for a name that breaks ``TextRules`` (1 to 64 characters) or that a live token
    ///   already has.
    package func create(name: String, scope: AdminScope, by caller: AdminCaller) async throws -> CreatedAdminToken {
        try caller.require(.write)
        try TextRules.check(name, field: "name", length: 1...64)
        let token = Self.prefix + random.token()
        let record = AdminTokenRecord(id: random.recordID(), name: name, scope: scope.rawValue, createdAt: clock.now())
        guard try await store.createAdminToken(record, hash: SecretDigest.sha256(token)) else {
            throw ProblemError.invalidRequest("an admin token named \(name) exists; revoke it first or choose another name")
        }
        try await audit.record(.adminTokenCreate, by: caller, detail: "\(name) (\(scope.rawValue))")
        return CreatedAdminToken(name: name, scope: scope, token: token)
    }

    /// Every token, revoked ones included, by name and then oldest first; never the tokens themselves.
    package func list() async throws -> [AdminTokenView] {
        try await store.adminTokens().map { record in
            AdminTokenView(
                name: record.name, scope: AdminScope(rawValue: record.scope) ?? .read, createdAt: record.createdAt,
                lastUsedAt: record.lastUsedAt, revokedAt: record.revokedAt)
        }
    }

    /// Revokes the live token named `name`: it authenticates nothing from now on.
    /// - Throws: `not_found` when no live token has this name.
    package func revoke(name: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        guard try await store.revokeAdminToken(name: name, at: clock.now()) else {
            throw ProblemError(.notFound, detail: "No live admin token is named \(name).")
        }
        try await audit.record(.adminTokenRevoke, by: caller, detail: name)
    }

    /// The caller a bearer token stands for, recording that the token was used.
    /// - Parameters:
    ///   - bearer: the token of `Authorization: Bearer`, without the scheme; `nil` when the request has none.
    ///   - ip: the caller's address, for the audit events of what it changes.
    /// - Throws: `unauthorized` for no token, or one that is unknown or revoked.
    package func authenticate(bearer: String?, ip: String) async throws -> AdminCaller {
        let refusal = ProblemError(.unauthorized, detail: "A valid admin token is required.")
        guard let bearer, bearer.hasPrefix(Self.prefix),
            let record = try await store.useAdminToken(hash: SecretDigest.sha256(bearer), at: clock.now())
        else { throw refusal }
        return AdminCaller(
            actor: .adminToken(name: record.name), ip: ip, scope: AdminScope(rawValue: record.scope) ?? .read)
    }
}

/// A new admin token, as `admin token create` shows it once.
package struct CreatedAdminToken: Sendable, Codable, Equatable {
    package var name: String
    package var scope: AdminScope
    /// `tsa_…`; shown only now.
    package var token: String
}

/// An admin token as `admin token list` shows it: never the token.
package struct AdminTokenView: Sendable, Codable, Equatable {
    package var name: String
    package var scope: AdminScope
    package var createdAt: Date
    package var lastUsedAt: Date?
    package var revokedAt: Date?
}
