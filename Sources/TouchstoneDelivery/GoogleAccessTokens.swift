import Foundation
import TouchstoneProtocol
import TouchstoneStorage
import Crypto
import _CryptoExtras

/// OAuth access tokens for FCM, one per service account, from its `token_uri` by the JWT-bearer grant (RFC 7523,
/// Google's profile: no `sub`). A token is kept until five minutes before it expires; concurrent sends share one
/// request for it.
actor GoogleAccessTokens {
    /// A token, or the answer the push gets when none could be had.
    enum Outcome: Sendable {
        case token(String)
        case unavailable(PushAnswer)
    }

    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// How long before its end a token is given up.
    static let margin: TimeInterval = 5 * 60

    private let connection: PushConnection
    private let clock: @Sendable () -> Date
    private var entries: [AccountKey: Entry] = [:]

    private enum Entry {
        case ready(token: String, keepUntil: Date)
        case fetching(Task<Fetched, Never>)
    }

    /// What one request to `token_uri` gave, and until when a token is kept.
    private struct Fetched: Sendable {
        let outcome: Outcome
        let keepUntil: Date
    }

    /// One entry per account and key.
    private struct AccountKey: Hashable {
        let clientEmail: String
        let privateKeyId: String
        let privateKeyPEM: String
        let tokenURI: String

        init(_ account: FCMServiceAccount) {
            clientEmail = account.clientEmail
            privateKeyId = account.privateKeyId
            privateKeyPEM = account.privateKeyPEM
            tokenURI = account.tokenURI
        }
    }

    init(connection: PushConnection, clock: @escaping @Sendable () -> Date) {
        self.connection = connection
        self.clock = clock
    }

    /// The account's kept token, or a new one.
    func token(for account: FCMServiceAccount) async -> Outcome {
        switch entries[AccountKey(account)] {
        case .ready(let token, let keepUntil) where clock() < keepUntil:
            return .token(token)
        case .fetching(let task):
            return await task.value.outcome
        case .ready, nil:
            return await fetch(for: account)
        }
    }

    /// After FCM answered 401 to `refused`: a token other than it (fetched meanwhile by another send, or now).
    func renew(after refused: String, for account: FCMServiceAccount) async -> Outcome {
        if case .ready(let token, _) = entries[AccountKey(account)], token == refused {
            entries[AccountKey(account)] = nil
        }
        return await token(for: account)
    }

    /// Asks `token_uri` once for all who wait; keeps what it gives.
    private func fetch(for account: FCMServiceAccount) async -> Outcome {
        let key = AccountKey(account)
        let (connection, now) = (connection, clock())
        let task = Task { await Self.request(account, connection: connection, now: now) }
        entries[key] = .fetching(task)
        let fetched = await task.value
        if case .token(let token) = fetched.outcome {
            entries[key] = .ready(token: token, keepUntil: fetched.keepUntil)
        } else {
            entries[key] = nil
        }
        return fetched.outcome
    }

    /// The JWT-bearer grant at the account's `token_uri` (`https` only: the assertion is a credential).
    private static func request(
        _ account: FCMServiceAccount, connection: PushConnection, now: Date
    ) async -> Fetched {
        func unavailable(_ answer: PushAnswer) -> Fetched { Fetched(outcome: .unavailable(answer), keepUntil: now) }
        guard let uri = URLComponents(string: account.tokenURI), uri.scheme?.lowercased() == "https", uri.host != nil
        else { return unavailable(.failed(reason: "the service account's token_uri is not an https URL")) }
        let assertion: String
        do {
            assertion = try Self.assertion(account, now: now)
        } catch {
            return unavailable(.failed(reason: "the service account's private_key is not an RSA private key"))
        }
        let form =
            "grant_type=" + PercentEncoding.unreserved("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion="
            + PercentEncoding.unreserved(assertion)
        let exchange = await connection.post(
            account.tokenURI, headers: [("content-type", "application/x-www-form-urlencoded")], body: Array(form.utf8))
        switch exchange {
        case .noAnswer(let reason):
            return unavailable(.retry(reason: "token_uri: " + reason, retryAfter: nil))
        case .answered(let status, let retryAfter, let body):
            switch status {
            case 200:
                guard let answer = PushServiceAnswer.accessToken(body) else {
                    return unavailable(.failed(reason: "token_uri: unreadable answer"))
                }
                return Fetched(
                    outcome: .token(answer.token),
                    keepUntil: now.addingTimeInterval(TimeInterval(answer.expiresIn) - margin))
            case 429, 500...599:
                return unavailable(.retry(reason: "token_uri: HTTP \(status)", retryAfter: retryAfter))
            default:
                return unavailable(
                    .failed(reason: "token_uri: " + (PushServiceAnswer.oauthError(body) ?? "HTTP \(status)")))
            }
        }
    }

    /// An RS256 JWT: header `{alg: RS256, typ: JWT, kid: private_key_id}`, claims `iss` = client_email, `scope`, `aud` =
    /// token_uri, `iat`, `exp` = `iat` + 3600.
    private static func assertion(_ account: FCMServiceAccount, now: Date) throws -> String {
        let key = try _RSA.Signing.PrivateKey(pemRepresentation: account.privateKeyPEM)
        let issuedAt = Int(now.timeIntervalSince1970)
        return try CompactJWT.make(
            header: ["alg": "RS256", "typ": "JWT", "kid": account.privateKeyId],
            claims: Claims(iss: account.clientEmail, scope: scope, aud: account.tokenURI, iat: issuedAt, exp: issuedAt + 3600)
        ) { try key.signature(for: SHA256.hash(data: $0), padding: .insecurePKCS1v1_5).rawRepresentation }
    }

    private struct Claims: Encodable {
        let iss: String
        let scope: String
        let aud: String
        let iat: Int
        let exp: Int
    }
}
