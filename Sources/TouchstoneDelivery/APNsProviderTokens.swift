import Crypto
import Foundation
import Synchronization
import TouchstoneStorage

/// APNs provider tokens (ES256 JWTs), one per key: made once, reused until 50 minutes old, renewed sooner after APNs
/// refuses one as expired, but never more often than every 20 minutes (Apple refuses tokens renewed more often).
final class APNsProviderTokens: Sendable {
    /// A signed token and when it was made.
    struct Token: Sendable, Equatable {
        let jwt: String
        let issuedAt: Date
    }

    /// What a renewal after a refusal gives.
    enum Renewal: Sendable, Equatable {
        /// A token newer than the refused one (made now, or by a concurrent send's renewal).
        case renewed(Token)
        /// The refused token is the newest and younger than 20 minutes: none may be made before `wait` has passed.
        case tooSoon(wait: Duration)
    }

    static let lifetime: TimeInterval = 50 * 60
    static let renewalInterval: TimeInterval = 20 * 60

    private let tokens = Mutex<[CacheKey: Token]>([:])

    init() {}

    /// The key's current token, made when there is none or it is 50 minutes old.
    /// - Throws: when the key's PEM is not a P-256 private key.
    func token(for credentials: APNsCredentials, now: Date) throws -> Token {
        try tokens.withLock { tokens in
            let key = CacheKey(credentials)
            if let token = tokens[key], now.timeIntervalSince(token.issuedAt) < Self.lifetime { return token }
            let token = try Self.make(credentials, now: now)
            tokens[key] = token
            return token
        }
    }

    /// After APNs answered `ExpiredProviderToken` to `refused`: the newer token when there is one, else a new one
    /// when the refused one is at least 20 minutes old.
    /// - Throws: when the key's PEM is not a P-256 private key.
    func renew(after refused: Token, for credentials: APNsCredentials, now: Date) throws -> Renewal {
        try tokens.withLock { tokens in
            let key = CacheKey(credentials)
            if let current = tokens[key], current != refused { return .renewed(current) }
            let age = now.timeIntervalSince(refused.issuedAt)
            guard age >= Self.renewalInterval else { return .tooSoon(wait: .seconds(Self.renewalInterval - age)) }
            let token = try Self.make(credentials, now: now)
            tokens[key] = token
            return .renewed(token)
        }
    }

    /// Header `{alg: ES256, kid}`, claims `{iss: team id, iat}`, signed with the `.p8` key.
    private static func make(_ credentials: APNsCredentials, now: Date) throws -> Token {
        let key = try P256.Signing.PrivateKey(pemRepresentation: credentials.keyPEM)
        let jwt = try CompactJWT.make(
            header: ["alg": "ES256", "kid": credentials.keyId],
            claims: Claims(iss: credentials.teamId, iat: Int(now.timeIntervalSince1970))
        ) { try key.signature(for: $0).rawRepresentation }
        return Token(jwt: jwt, issuedAt: now)
    }

    private struct Claims: Encodable {
        let iss: String
        let iat: Int
    }

    /// One cache entry per signing key (a changed key, or key id, gets its own token).
    private struct CacheKey: Hashable {
        let teamId: String
        let keyId: String
        let keyPEM: String

        init(_ credentials: APNsCredentials) {
            teamId = credentials.teamId
            keyId = credentials.keyId
            keyPEM = credentials.keyPEM
        }
    }
}
