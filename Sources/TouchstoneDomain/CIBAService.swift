import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// OpenID CIBA (Client-Initiated Backchannel Authentication Core 1.0, poll and ping modes): a client asks the user to
/// approve on their phone what its binding message and `authorization_details` say; the device signs the `txn` that
/// commits to both. The tokens come from the token endpoint's CIBA grant (``TokenEndpointService``).
package struct CIBAService: Sendable {
    typealias Store = UserStore & AppStore & ProviderStore & CIBAStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    let signer: TokenSigner
    let auditor: Auditor
    let clients: ProviderClients
    let decisions: DecisionService

    /// `requested_expiry`'s range and default.
    static let lifetimes = 30...600
    static let defaultLifetime = 300
    /// The seconds a client waits between polls at first (§7.3).
    static let interval = 5
    /// `client_notification_token`: 1…1024 characters of RFC 6750's `b64token`.
    static let notificationTokenLengths = 1...1024

    /// `POST /oauth2/bc-authorize` (§7): checks the request and answers the same for an unknown user and for a request
    /// over the approval limits, which are never delivered (they end `expired_token`).
    /// - Throws: `invalid_client` (as at the token endpoint), `unauthorized_client` for a client without a CIBA mode,
    ///   `invalid_scope`, `invalid_request`, `invalid_binding_message`, `invalid_authorization_details`.
    package func authorize(_ parameters: OAuthParameters, credentials: ClientCredentials, ip: String) async throws
        -> BackchannelAuthentication
    {
        let client = try await clients.authenticate(credentials)
        guard let registration = try await store.cibaClient(clientId: client.clientId) else {
            throw OAuthError(.unauthorizedClient, "the client is not registered for CIBA")
        }
        let request = try await check(parameters, client: client, registration: registration)
        let app = try await store.existingApp(client.clientId)
        let user = try await user(of: request.hint)
        let now = clock.now()
        let authRequestId = random.token()
        let record = CIBARequestRecord(
            id: random.recordID(), authRequestHash: SecretDigest.sha256(authRequestId), clientId: client.clientId,
            publisher: app.publisher, userId: user?.id, scope: request.scope, bindingMessage: request.bindingMessage,
            authorizationDetails: request.authorizationDetailsText, txn: request.txn, challenge: random.token(),
            createdAt: now, expiresAt: now + TimeInterval(request.lifetime), interval: Self.interval,
            status: user == nil ? .suppressed : .pending,
            ping: request.notificationToken.map { CIBARequestRecord.Ping(authRequestId: authRequestId, token: $0) })
        let status = try await store.createCIBARequest(record, limits: .standard)
        await auditor.record(
            .cibaAuthorize, outcome: user == nil ? .unknownUser : status == .pending ? .ok : .suppressed,
            userId: user?.id, clientId: client.clientId, ip: ip, detail: record.id)
        return BackchannelAuthentication(authRequestId: authRequestId, expiresIn: request.lifetime, interval: Self.interval)
    }

    /// A checked backchannel request.
    private struct Checked {
        enum Hint {
            case username(String)
            case userId(String)
        }
        var scope: String
        var hint: Hint
        var bindingMessage: String?
        var lifetime: Int
        var notificationToken: String?
        var authorizationDetailsText: String?
        var txn: String
    }

    private func check(_ parameters: OAuthParameters, client: OIDCClientRecord, registration: CIBAClientRecord)
        async throws -> Checked
    {
        guard let scope = try parameters.single("scope"), scope.split(separator: " ").contains("openid") else {
            throw OAuthError(.invalidScope, "scope must contain openid")
        }
        guard try parameters.single("login_hint_token") == nil else {
            throw OAuthError.invalidRequest("login_hint_token is not supported; send login_hint or id_token_hint")
        }
        let hint: Checked.Hint
        switch (try parameters.single("login_hint"), try parameters.single("id_token_hint")) {
        case (let username?, nil): hint = .username(username)
        case (nil, let token?):
            guard let claims = try await signer.verifyIDTokenSignature(token), claims.aud == client.clientId else {
                throw OAuthError.invalidRequest("id_token_hint is not an ID token this server issued to this client")
            }
            hint = .userId(claims.sub)
        default: throw OAuthError.invalidRequest("send exactly one of login_hint and id_token_hint")
        }
        let bindingMessage = try parameters.single("binding_message")
        if let bindingMessage {
            do {
                try ConfirmationService.checkShown(
                    bindingMessage, name: "binding_message", longest: ConfirmationService.longestText)
            } catch let problem as ProblemError {
                throw OAuthError(.invalidBindingMessage, problem.detail ?? "binding_message cannot be shown")
            }
        }
        var lifetime = Self.defaultLifetime
        if let expiry = try parameters.single("requested_expiry") {
            guard expiry.utf8.count <= 3, expiry.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int(expiry),
                Self.lifetimes.contains(seconds)
            else { throw OAuthError.invalidRequest("requested_expiry must be 30 to 600 seconds") }
            lifetime = seconds
        }
        if let acr = try parameters.single("acr_values"),
            !acr.split(separator: " ").allSatisfy({ $0 == AssuranceLevel.aal2.rawValue })
        {
            throw OAuthError.invalidRequest("acr_values may only be aal2")
        }
        let notificationToken = try parameters.single("client_notification_token")
        switch (registration.mode, notificationToken) {
        case (.ping, nil): throw OAuthError.invalidRequest("a ping client must send client_notification_token")
        case (.ping, let token?):
            guard Self.notificationTokenLengths.contains(token.utf8.count), Self.isB64Token(token) else {
                throw OAuthError.invalidRequest("client_notification_token must be 1 to 1024 characters of b64token")
            }
        case (.poll, nil): break
        case (.poll, _?): throw OAuthError.invalidRequest("a poll client may not send client_notification_token")
        }
        let detailsText = try parameters.single("authorization_details")
        let details = try detailsText.map { text throws(OAuthError) in try AuthorizationDetails(text) }
        return Checked(
            scope: scope, hint: hint, bindingMessage: bindingMessage, lifetime: lifetime,
            notificationToken: notificationToken, authorizationDetailsText: detailsText,
            txn: TransactionHash.ofBackchannel(
                clientId: client.clientId, bindingMessage: bindingMessage, canonicalDetails: details?.canonical))
    }

    /// RFC 6750 §2.1: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    static func isB64Token(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        let isTokenByte = { (byte: UInt8) in
            PercentEncoding.isUnreserved(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
        return !body.isEmpty && body.allSatisfy(isTokenByte)
            && bytes[body.count...].allSatisfy { $0 == UInt8(ascii: "=") }
    }

    private func user(of hint: Checked.Hint) async throws -> UserRecord? {
        switch hint {
        case .username(let username): try await store.user(username: username)
        case .userId(let id): try await store.user(id: id)
        }
    }

    /// `POST /v1/ciba/{id}/decision`: the answers and errors of a confirmation's decision.
    package func decide(_ id: String, assertion: String, ip: String) async throws -> DecisionRecorded {
        guard let request = try await store.cibaRequest(id: id) else {
            throw ProblemError(.notFound, detail: "No such request.")
        }
        return try await auditor.recording(.cibaDecide, userId: request.userId, clientId: request.clientId, ip: ip) {
            let target = DecisionTarget(
                id: request.id, challenge: request.challenge, expiresAt: request.expiresAt,
                isDecided: request.status == .approved || request.status == .denied,
                isRecipient: { device in
                    request.status != .suppressed
                        && DecisionService.reaches(userId: request.userId, publisher: request.publisher)(device)
                },
                txn: request.txn, policy: .asking(clientId: request.clientId))
            let decision = try await decisions.verify(assertion, for: target)
            let status: ItemStatus = decision.approves ? .approved : .denied
            try decisions.settle(
                try await store.decideCIBARequest(id: id, status: status, amr: decision.amr, by: decision.commit))
            return DecisionRecorded(status: DecisionStatus(rawValue: status.rawValue))
        }
    }
}
