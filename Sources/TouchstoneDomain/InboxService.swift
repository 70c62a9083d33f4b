import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// A device's inbox: confirmations, web logins and new devices of its user waiting for its decision.
package struct InboxService: Sendable {
    package let environment: ServiceEnvironment

    package static let longestWait = 30
    /// How often a waiting long-poll looks again.
    static let pollInterval: Duration = .milliseconds(250)

    /// The device's inbox: at once when items wait, otherwise when one arrives, after `waitSeconds` (at most 30), or when
    /// the server begins to stop.
    package func inbox(of device: AuthenticatedDevice, waitSeconds: Int) async throws -> Inbox {
        let device = device.record
        let deadline = ContinuousClock.now + .seconds(min(max(0, waitSeconds), Self.longestWait))
        environment.metrics.inboxWaiters.increment()
        defer { environment.metrics.inboxWaiters.decrement() }
        while true {
            let items = try await items(for: device)
            if !items.isEmpty || ContinuousClock.now >= deadline || Task.isCancelled || environment.shutdown.hasBegun {
                return Inbox(items: items)
            }
            try await Task.sleep(for: Self.pollInterval)
        }
    }

    package func items(for device: DeviceRecord) async throws -> [InboxItem] {
        let now = environment.clock.now()
        let store = environment.store
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
                    numbers: webLogin.numbers, ip: webLogin.ip, requestedAt: webLogin.createdAt))
        }
        return items
    }

    package init(environment: ServiceEnvironment) {
        self.environment = environment
    }
}
