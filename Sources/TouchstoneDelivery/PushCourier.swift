import Foundation
import Logging
import Metrics
import TouchstoneStorage

/// Delivers the push outbox for an ``OutboxSender``: hands each push to the push service its device registered with,
/// with the app's credentials (read again after ``credentialsLifetime``). A push the service took is finished; a token
/// it no longer knows loses its registration; a busy service is tried again with exponential backoff from one second
/// (or its `Retry-After`), at most ``mostTries`` tries and never after the item expires; any other answer is given up.
package struct PushCourier: OutboxCourier {
    /// Tries per push, the first included.
    package static let mostTries = 8
    /// How long an app's credentials are reused before they are read again: changed credentials apply within it.
    static let credentialsLifetime: TimeInterval = 30

    let store: any PushStore
    let gateway: any PushGateway
    let now: @Sendable () -> Date
    let logger: Logger
    let metrics: PushMetrics
    private let credentials = CredentialsCache(lifetime: Self.credentialsLifetime)

    package let kind = "push"
    package let schedule = RetrySchedule(first: 1, mostTries: Self.mostTries)
    package var queued: Gauge? { metrics.queued }

    package init(
        store: any PushStore, gateway: any PushGateway, now: @escaping @Sendable () -> Date, logger: Logger,
        metrics: any MetricsFactory
    ) {
        self.store = store
        self.gateway = gateway
        self.now = now
        self.logger = logger
        self.metrics = PushMetrics(factory: metrics)
    }

    package func attempt(_ push: QueuedPush) async throws -> OutboxTry {
        let provider = push.registration.provider
        let credentials = try await credentials.credentials(of: push.clientId, at: now()) {
            try await store.pushCredentials(clientId: push.clientId)
        }
        switch await gateway.send(push, credentials: credentials) {
        case .delivered:
            metrics.count(provider, .delivered)
            return .finished
        case .unregistered(let reason):
            metrics.count(provider, .unregistered)
            logger.notice(
                "push: the service no longer knows the device's registration; removed",
                metadata: ["device_id": "\(push.reference.deviceId)", "provider": "\(provider)", "reason": "\(reason)"])
            try await store.removePushRegistration(deviceId: push.reference.deviceId, token: push.registration.token)
            return .finished
        case .retry(let reason, let retryAfter):
            return .retry(reason: reason, retryAfter: retryAfter)
        case .failed(let reason):
            metrics.count(provider, .failed)
            logger.warning(
                "push: refused by the service; given up",
                metadata: ["push_id": "\(push.id)", "provider": "\(provider)", "reason": "\(reason)"])
            return .finished
        }
    }

    package func retrying(_ push: QueuedPush, reason: String, at dueAt: Date) {
        metrics.count(push.registration.provider, .retried)
    }

    package func givenUp(_ push: QueuedPush, reason: String) {
        metrics.count(push.registration.provider, .failed)
        logger.warning(
            "push: given up after \(push.attempts + 1) tries",
            metadata: ["push_id": "\(push.id)", "provider": "\(push.registration.provider)", "reason": "\(reason)"])
    }
}
