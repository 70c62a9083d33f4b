import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// "Approve this web login on your phone", with number matching.
struct WebLoginService: Sendable {
    let environment: ServiceEnvironment

    static let lifetime: TimeInterval = 120
    static let hourlyLimit = 5
    static let coolDown: TimeInterval = 900

    /// `POST /v1/web-logins`: the same answer for unknown users and for requests over the limits; those are never
    /// delivered to a device.
    func start(_ request: WebLoginRequest, browser: String, ip: String) async throws -> WebLoginStarted {
        let app = try await environment.app(request.clientId ?? AppRecord.demo.clientId)
        let now = environment.clock.now()
        let user = try await environment.store.user(username: request.username)
        let numbers = Self.threeNumbers()
        let number = numbers.randomElement() ?? numbers[0]
        let pollSecret = SecretDigest.randomToken()
        let webLogin = WebLoginRecord(
            id: ServiceEnvironment.newID(), userId: user?.id, clientId: app.clientId, publisher: app.publisher,
            number: number, numbers: numbers, pollSecretHash: SecretDigest.sha256(pollSecret),
            challenge: SecretDigest.randomToken(), browser: String(browser.prefix(200)), ip: ip, createdAt: now,
            expiresAt: now + Self.lifetime, status: user == nil ? .suppressed : .pending)
        let status = try await environment.store.createWebLogin(
            webLogin, hourlyLimit: Self.hourlyLimit, coolDownSince: now - Self.coolDown)
        await environment.auditor.record(
            "web_login.start", outcome: status == .pending ? "ok" : "suppressed", userId: user?.id,
            clientId: app.clientId, ip: ip, detail: webLogin.id)
        return WebLoginStarted(webLoginId: webLogin.id, number: number, pollSecret: pollSecret, expiresAt: webLogin.expiresAt)
    }

    /// `GET /v1/web-logins/{id}` with the poll secret; the session comes once, when approved.
    func poll(_ id: String, pollSecret: String?) async throws -> WebLoginPoll {
        guard let pollSecret, let webLogin = try await environment.store.webLogin(id: id),
            SecretDigest.constantTimeEquals(SecretDigest.sha256(pollSecret), webLogin.pollSecretHash)
        else { throw ProblemError(404, .notFound, "No such web login.") }
        switch webLogin.status {
        case .pending, .suppressed:
            return WebLoginPoll(status: webLogin.expiresAt <= environment.clock.now() ? .expired : .pending)
        case .denied:
            return WebLoginPoll(status: .denied)
        case .approved:
            guard let userId = webLogin.userId, try await environment.store.claimWebLoginDelivery(id: id) else {
                return WebLoginPoll(status: .approved)
            }
            let session = try await SessionService(environment: environment).issue(
                userId: userId, device: nil, clientId: webLogin.clientId, amr: webLogin.amr ?? ["bio"], acr: "aal2")
            return WebLoginPoll(status: .approved, session: session)
        }
    }

    /// `POST /v1/web-logins/{id}/decision`: approving with another number than the browser's denies the login.
    func decide(_ id: String, assertion: String, ip: String) async throws -> DecisionRecorded {
        guard let webLogin = try await environment.store.webLogin(id: id) else {
            throw ProblemError(404, .notFound, "No such web login.")
        }
        return try await environment.auditor.recording(
            "web_login.decide", userId: webLogin.userId, clientId: webLogin.clientId, ip: ip
        ) {
            let target = DecisionTarget(
                id: webLogin.id, challenge: webLogin.challenge, expiresAt: webLogin.expiresAt,
                isDecided: webLogin.status == .approved || webLogin.status == .denied,
                isRecipient: { device in
                    webLogin.status != .suppressed
                        && DecisionService.reaches(userId: webLogin.userId, publisher: webLogin.publisher)(device)
                },
                txn: nil)
            let decision = try await DecisionService(environment: environment).verify(assertion, for: target)
            let status: ItemStatus = decision.approves && decision.claims.number == webLogin.number ? .approved : .denied
            guard
                try await environment.store.decideWebLogin(
                    id: id, status: status, deviceId: decision.device.id, amr: decision.amr,
                    now: environment.clock.now())
            else { throw DecisionService.alreadyDecided }
            return DecisionRecorded(status: DecisionStatus(rawValue: status.rawValue))
        }
    }

    /// Three distinct numbers from 10 to 99, in random order.
    static func threeNumbers() -> [Int] {
        var numbers: Set<Int> = []
        while numbers.count < 3 { numbers.insert(Int.random(in: 10...99)) }
        return numbers.shuffled()
    }
}
