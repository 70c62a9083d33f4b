import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// "Approve this web login on your phone", with number matching.
package struct WebLoginService: Sendable {
    typealias Store = UserStore & WebLoginStore & AppStore & ProviderStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    let metrics: ServerMetrics
    let auditor: Auditor
    let decisions: DecisionService
    let sessionIssuer: SessionIssuer

    package static let lifetime: TimeInterval = 120

    /// `POST /v1/web-logins`: the same answer for unknown users and for requests over the limits; those are never
    /// delivered to a device. For a sign-in request with payment details, the item carries them and their `txn`.
    /// - Throws: `not_found` for a sign-in request that is unknown, finished or expired.
    package func start(_ request: WebLoginRequest, browser: String, ip: String) async throws -> WebLoginStarted {
        let app = try await store.existingApp(request.clientId ?? AppRecord.demo.clientId)
        let now = clock.now()
        var payment: (details: String, txn: String)?
        if let signInRequestId = request.signInRequestId {
            guard let kept = try await store.authorizationRequest(id: signInRequestId, at: now), !kept.pushed else {
                throw ProviderService.requestGone
            }
            let parameters = try AuthorizationParameters(stored: kept.parameters)
            if let details = parameters.authorizationDetails, let (_, txn) = try parameters.payment() {
                payment = (details, txn)
            }
        }
        let user = try await store.user(username: request.username)
        let (number, numbers) = NumberMatching.draw(using: random)
        let pollSecret = random.token()
        let webLogin = WebLoginRecord(
            id: random.recordID(), userId: user?.id, clientId: app.clientId, publisher: app.publisher,
            number: number, numbers: numbers, pollSecretHash: SecretDigest.sha256(pollSecret),
            challenge: random.token(), browser: String(browser.prefix(200)), ip: ip, createdAt: now,
            expiresAt: now + Self.lifetime, status: user == nil ? .suppressed : .pending,
            signInRequestId: payment == nil ? nil : request.signInRequestId, authorizationDetails: payment?.details,
            txn: payment?.txn)
        let status = try await store.createWebLogin(
            webLogin, limits: .standard)
        await auditor.record(
            .webLoginStart, outcome: status == .pending ? .ok : .suppressed, userId: user?.id,
            clientId: app.clientId, ip: ip, detail: webLogin.id)
        return WebLoginStarted(webLoginId: webLogin.id, number: number, pollSecret: pollSecret, expiresAt: webLogin.expiresAt)
    }

    /// `GET /v1/web-logins/{id}` with the poll secret; the session comes once, when approved.
    package func poll(_ id: String, pollSecret: String?, ip: String? = nil) async throws -> WebLoginPoll {
        guard let pollSecret, let webLogin = try await store.webLogin(id: id),
            SecretDigest.constantTimeEquals(SecretDigest.sha256(pollSecret), webLogin.pollSecretHash)
        else { throw ProblemError(.notFound, detail: "No such web login.") }
        switch webLogin.status {
        case .pending, .suppressed:
            return WebLoginPoll(status: webLogin.expiresAt <= clock.now() ? .expired : .pending)
        case .denied:
            return WebLoginPoll(status: .denied)
        case .approved:
            guard let userId = webLogin.userId, let approver = webLogin.deviceId else {
                return WebLoginPoll(status: .approved)
            }
            let prepared = sessionIssuer.prepare(
                userId: userId, device: nil, clientId: webLogin.clientId, amr: webLogin.amr ?? [.biometric], acr: .aal2,
                approvedBy: approver, ip: ip)
            switch try await store.deliverWebLogin(
                id: id, session: prepared.record, refreshTokenHash: prepared.refreshTokenHash)
            {
            case .delivered:
                metrics.login(.web, outcome: "success")
                return WebLoginPoll(status: .approved, session: try await sessionIssuer.issue(prepared))
            case .alreadyDelivered: return WebLoginPoll(status: .approved)
            // A session approved by a device lives only while that device does.
            case .approverInactive:
                metrics.login(.web, outcome: ProblemCode.deviceRevoked.rawValue)
                return WebLoginPoll(status: .denied)
            }
        }
    }

    /// `POST /v1/web-logins/{id}/decision`: approving with another number than the browser's denies the login.
    package func decide(_ id: String, assertion: String, ip: String) async throws -> DecisionRecorded {
        guard let webLogin = try await store.webLogin(id: id) else {
            throw ProblemError(.notFound, detail: "No such web login.")
        }
        // Counted as a login here when the phone's answer refuses it; an approval counts once the browser has its session.
        let recorded = try await metrics.countingRefusal(.web) {
            try await record(webLogin, assertion: assertion, ip: ip)
        }
        if recorded.status == .denied { metrics.login(.web, outcome: "denied") }
        return recorded
    }

    private func record(_ webLogin: WebLoginRecord, assertion: String, ip: String) async throws -> DecisionRecorded {
        let id = webLogin.id
        return try await auditor.recording(
            .webLoginDecide, userId: webLogin.userId, clientId: webLogin.clientId, ip: ip
        ) {
            let target = DecisionTarget(
                id: webLogin.id, challenge: webLogin.challenge, expiresAt: webLogin.expiresAt,
                isDecided: webLogin.status == .approved || webLogin.status == .denied,
                isRecipient: { device in
                    webLogin.status != .suppressed
                        && DecisionService.reaches(userId: webLogin.userId, publisher: webLogin.publisher)(device)
                },
                txn: webLogin.txn, policy: .asking(clientId: webLogin.clientId))
            let decision = try await decisions.verify(assertion, for: target)
            let status: ItemStatus = decision.approves && decision.claims.number == webLogin.number ? .approved : .denied
            try decisions.settle(
                try await store.decideWebLogin(id: id, status: status, amr: decision.amr, by: decision.commit))
            return DecisionRecorded(status: DecisionStatus(rawValue: status.rawValue))
        }
    }

}
