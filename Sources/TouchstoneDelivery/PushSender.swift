import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Synchronization
import TouchstoneProtocol
import TouchstoneStorage

/// Sends the outbox's pushes: a `Service` of the server's `ServiceGroup` that claims due pushes through the store,
/// hands each to the push service its device registered with, and finishes, retries or drops it by the answer.
///
/// Every instance of a server runs one; the store's claim lets exactly one of them send a push, and a claim lapses
/// after ``claimLease`` so that a push claimed by an instance that died is sent by another. On graceful shutdown it
/// claims nothing more and finishes the pushes in flight (each try ends within the gateway's timeout).
package struct PushSender: Service {
    /// How long a claim holds: a push whose sender died is claimed again after it.
    package static let claimLease: TimeInterval = 30
    /// Tries per push, the first included.
    package static let mostTries = 8
    /// The wait before the second try; it doubles for each try after.
    static let firstBackoff: TimeInterval = 1
    /// How long an app's credentials are reused before they are read again: changed credentials apply within it.
    static let credentialsLifetime: TimeInterval = 30

    let store: any PushStore
    let gateway: any PushGateway
    let now: @Sendable () -> Date
    let logger: Logger
    let metrics: PushMetrics
    /// Finishes once the database is migrated: the services of a group start together.
    let after: AsyncStream<Void>
    /// Names this sender's claims; unique per process.
    let claimant: String
    /// How often an idle sender looks for due pushes.
    let pollInterval: Duration
    /// Pushes claimed at a time, and sent concurrently.
    let batchSize: Int
    private let credentials: CredentialsCache

    package init(
        store: any PushStore, gateway: any PushGateway, now: @escaping @Sendable () -> Date, logger: Logger,
        metrics: any MetricsFactory, after: AsyncStream<Void>, pollInterval: Duration = .milliseconds(250),
        batchSize: Int = 32
    ) {
        self.store = store
        self.gateway = gateway
        self.now = now
        self.logger = logger
        self.metrics = PushMetrics(factory: metrics)
        self.after = after
        self.claimant = "sender-" + UUID().uuidString.lowercased()
        self.pollInterval = pollInterval
        self.batchSize = batchSize
        self.credentials = CredentialsCache(lifetime: Self.credentialsLifetime)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in after {}
        }
        // When the queue was last counted for the gauge: at most once a second while idle.
        var countedAt: ContinuousClock.Instant?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var claimed: [QueuedPush] = []
            do {
                let now = now()
                claimed = try await store.pushOutbox.claimDue(
                    claimant: claimant, now: now, leaseUntil: now.addingTimeInterval(Self.claimLease), limit: batchSize)
                if !claimed.isEmpty || countedAt.map({ $0.duration(to: .now) >= .seconds(1) }) ?? true {
                    metrics.queued.record(try await store.pushOutbox.queuedCount())
                    countedAt = .now
                }
            } catch {
                logger.warning("push outbox: claiming failed", metadata: ["error": "\(error)"])
            }
            if claimed.isEmpty {
                do {
                    try await cancelWhenGracefulShutdown { try await Task.sleep(for: pollInterval) }
                } catch {
                    return
                }
                continue
            }
            await withTaskGroup(of: Void.self) { group in
                for push in claimed {
                    group.addTask { await deliver(push) }
                }
            }
        }
    }

    /// One try of one claimed push, and what the outbox does with its answer.
    func deliver(_ push: QueuedPush) async {
        let provider = push.registration.provider
        do {
            let credentials = try await credentials.credentials(of: push.clientId, at: now()) {
                try await store.pushCredentials(clientId: push.clientId)
            }
            let answer = await gateway.send(push, credentials: credentials)
            switch answer {
            case .delivered:
                metrics.count(provider, .delivered)
                try await store.pushOutbox.finish(id: push.id, claimant: claimant)
            case .unregistered(let reason):
                metrics.count(provider, .unregistered)
                logger.notice(
                    "push: the service no longer knows the device's registration; removed",
                    metadata: ["device_id": "\(push.reference.deviceId)", "provider": "\(provider)", "reason": "\(reason)"])
                try await store.removePushRegistration(deviceId: push.reference.deviceId, token: push.registration.token)
                try await store.pushOutbox.finish(id: push.id, claimant: claimant)
            case .retry(let reason, let retryAfter):
                let dueAt = retryTime(after: push.attempts, retryAfter: retryAfter)
                if push.attempts + 1 >= Self.mostTries || dueAt >= push.expiresAt {
                    metrics.count(provider, .failed)
                    logger.warning(
                        "push: given up after \(push.attempts + 1) tries",
                        metadata: ["push_id": "\(push.id)", "provider": "\(provider)", "reason": "\(reason)"])
                    try await store.pushOutbox.finish(id: push.id, claimant: claimant)
                } else {
                    metrics.count(provider, .retried)
                    try await store.pushOutbox.retry(id: push.id, claimant: claimant, dueAt: dueAt)
                }
            case .failed(let reason):
                metrics.count(provider, .failed)
                logger.warning(
                    "push: refused by the service; given up",
                    metadata: ["push_id": "\(push.id)", "provider": "\(provider)", "reason": "\(reason)"])
                try await store.pushOutbox.finish(id: push.id, claimant: claimant)
            }
        } catch {
            // The claim lapses and the push is tried again.
            logger.warning("push outbox: recording a try failed", metadata: ["push_id": "\(push.id)", "error": "\(error)"])
        }
    }

    /// When the try after `attempts` earlier ones is due: exponential backoff from one second, or later when the
    /// service asked for more.
    func retryTime(after attempts: Int, retryAfter: Duration?) -> Date {
        let backoff = Self.firstBackoff * pow(2, Double(min(attempts, 16)))
        let asked = retryAfter.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0
        return now().addingTimeInterval(max(backoff, asked))
    }
}

/// Apps' credentials, read again after their lifetime.
private final class CredentialsCache: Sendable {
    private struct Entry {
        var credentials: PushCredentials
        var readAt: Date
    }

    private let lifetime: TimeInterval
    private let entries = Mutex<[String: Entry]>([:])

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
    }

    func credentials(
        of clientId: String, at now: Date, reading: () async throws -> PushCredentials
    ) async throws -> PushCredentials {
        if let entry = entries.withLock({ $0[clientId] }), now.timeIntervalSince(entry.readAt) < lifetime {
            return entry.credentials
        }
        let credentials = try await reading()
        entries.withLock { $0[clientId] = Entry(credentials: credentials, readAt: now) }
        return credentials
    }
}

/// `touchstone_push_sent_total{provider,outcome}` per try, and `touchstone_push_queued`.
struct PushMetrics: Sendable {
    enum Outcome: String {
        case delivered, unregistered, retried, failed
    }

    let factory: any MetricsFactory
    /// Pushes queued and not finished, retries waiting included.
    let queued: Gauge

    init(factory: any MetricsFactory) {
        self.factory = factory
        queued = Gauge(label: "touchstone_push_queued", factory: factory)
    }

    func count(_ provider: PushProvider, _ outcome: Outcome) {
        Counter(
            label: "touchstone_push_sent_total", dimensions: [("provider", provider.rawValue), ("outcome", outcome.rawValue)],
            factory: factory
        ).increment()
    }
}
