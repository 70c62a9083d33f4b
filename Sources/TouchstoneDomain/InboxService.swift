import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// A device's inbox: confirmations, web logins and new devices of its user waiting for its decision, and the security
/// notices left for it.
package struct InboxService: Sendable {
    typealias Store = NoticeStore & EnrollmentStore & ConfirmationStore & WebLoginStore & AppStore & CIBAStore
        & ProviderStore

    let store: any Store
    let clock: any WallClock
    let metrics: ServerMetrics
    /// Begun when the server stops: long polls answer at once.
    let shutdown: ShutdownNotice

    package static let longestWait = 30
    /// How often a waiting long-poll looks again.
    static let pollInterval: Duration = .milliseconds(250)

    /// The device's inbox: at once when items wait, otherwise when one arrives, after `waitSeconds` (at most 30), or when
    /// the server begins to stop.
    package func inbox(of device: AuthenticatedDevice, waitSeconds: Int) async throws -> Inbox {
        let device = device.record
        let deadline = ContinuousClock.now + .seconds(min(max(0, waitSeconds), Self.longestWait))
        metrics.inboxWaiters.increment()
        defer { metrics.inboxWaiters.decrement() }
        while true {
            let entries = try await entries(for: device)
            if !entries.isEmpty || ContinuousClock.now >= deadline || Task.isCancelled || shutdown.hasBegun {
                return Inbox(entries: entries)
            }
            try await Task.sleep(for: Self.pollInterval)
        }
    }

    /// The requests waiting for the device's decision, then its notices, oldest first.
    package func entries(for device: DeviceRecord) async throws -> [InboxEntry] {
        let notices = try await store.notices(deviceId: device.id, now: clock.now()).map {
            InboxEntry.notice(SecurityNotice(id: $0.id, event: $0.event, at: $0.createdAt, detail: $0.detail))
        }
        return try await items(for: device).map(InboxEntry.request) + notices
    }

    /// `GET /v1/devices/{deviceId}/inbox/{id}`: one item of the device's inbox, as the inbox lists it (what a push
    /// announced).
    /// - Throws: 404 `not_found` for an unknown, decided, expired or dismissed item, or one of another device's inbox.
    package func entry(_ id: String, of device: AuthenticatedDevice) async throws -> InboxEntry {
        guard let entry = try await entries(for: device.record).first(where: { $0.id == id }) else {
            throw ProblemError(.notFound, detail: "No such item in this device's inbox.")
        }
        return entry
    }

    /// `GET /v1/account/notices`: the account's own copies of its notices, for the web page.
    package func accountNotices(_ identity: AccessIdentity) async throws -> AccountNotices {
        AccountNotices(
            notices: try await store.accountNotices(userId: identity.userId, now: clock.now())
                .map { SecurityNotice(id: $0.id, event: $0.event, at: $0.createdAt, detail: $0.detail) })
    }

    /// `DELETE /v1/devices/{deviceId}/inbox/{id}`: the device dismisses one of its notices.
    /// - Throws: 404 `not_found` for an unknown, dismissed or expired notice, another device's, or a request.
    package func dismiss(_ id: String, by device: AuthenticatedDevice) async throws {
        guard try await store.dismissNotice(id: id, deviceId: device.record.id, now: clock.now())
        else { throw ProblemError(.notFound, detail: "No such notice in this device's inbox.") }
    }

    /// The requests waiting for the device's decision.
    package func items(for device: DeviceRecord) async throws -> [InboxItem] {
        let now = clock.now()
        var items: [InboxItem] = []
        for enrollment in try await store.pendingEnrollments(userId: device.userId, now: now) {
            guard let pending = enrollment.pendingDevice, let challenge = enrollment.approvalChallenge,
                let expiresAt = enrollment.pendingExpiresAt, let app = try await store.app(clientId: enrollment.clientId)
            else { continue }
            items.append(
                InboxItem(
                    kind: .enrollment, id: enrollment.id, clientId: app.clientId, publisher: app.publisher,
                    challenge: challenge, expiresAt: expiresAt, numbers: enrollment.approvalNumbers, ip: pending.ip,
                    requestedAt: enrollment.createdAt, name: pending.device.name, model: pending.device.model))
        }
        for confirmation in try await store.pendingConfirmations(userId: device.userId, publisher: device.publisher, now: now) {
            items.append(
                InboxItem(
                    kind: .confirmation, id: confirmation.id, clientId: confirmation.clientId,
                    publisher: confirmation.publisher, challenge: confirmation.challenge,
                    expiresAt: confirmation.expiresAt, text: confirmation.text, amount: confirmation.amount,
                    currency: confirmation.currency, payee: confirmation.payee))
        }
        for webLogin in try await store.pendingWebLogins(userId: device.userId, publisher: device.publisher, now: now) {
            items.append(
                InboxItem(
                    kind: .webLogin, id: webLogin.id, clientId: webLogin.clientId, publisher: webLogin.publisher,
                    challenge: webLogin.challenge, expiresAt: webLogin.expiresAt, browser: webLogin.browser,
                    numbers: webLogin.numbers, ip: webLogin.ip, requestedAt: webLogin.createdAt,
                    authorizationDetails: try webLogin.authorizationDetails.map { try StrictJSONParser.parse($0.utf8) },
                    txn: webLogin.txn))
        }
        for request in try await store.pendingCIBARequests(userId: device.userId, publisher: device.publisher, now: now) {
            items.append(try await item(of: request))
        }
        return items
    }

    /// A CIBA request as a device shows it: the asking app's name, the binding message and the payment as sent.
    private func item(of request: CIBARequestRecord) async throws -> InboxItem {
        InboxItem(
            kind: .ciba, id: request.id, clientId: request.clientId, publisher: request.publisher,
            challenge: request.challenge, expiresAt: request.expiresAt,
            clientName: try await store.oidcClient(clientId: request.clientId)?.name ?? request.clientId,
            scope: request.scope, bindingMessage: request.bindingMessage,
            authorizationDetails: try request.authorizationDetails.map { try StrictJSONParser.parse($0.utf8) },
            txn: request.txn)
    }

}
