import Foundation
import Logging
import Prometheus
import Synchronization
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDelivery
@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// The webhook outbox's sender, on both stores: a queued event is delivered signed (verified by the `standardwebhooks`
/// package from PyPI), a retry keeps its id, a 410 disables the webhook, and the schedule is 5 s, then doubling, at most
/// an hour apart (or the receiver's `Retry-After`, if longer), until 24 hours after the event was queued.
@Suite struct WebhookSenderTests {
    /// Answers every try with the next of `answers` (the last one again when they run out), and records when each came.
    final class ScriptedReceiver: WebhookGateway {
        private let state: Mutex<(answers: [WebhookAnswer], tries: [(id: String, attempts: Int, at: Date)])>

        init(_ answers: [WebhookAnswer]) {
            state = Mutex((answers, []))
        }

        func send(_ webhook: QueuedWebhook, at now: Date) async -> WebhookAnswer {
            state.withLock { state in
                state.tries.append((webhook.id, webhook.attempts, now))
                return state.answers.count > 1 ? state.answers.removeFirst() : state.answers[0]
            }
        }

        var tries: [(id: String, attempts: Int, at: Date)] { state.withLock { $0.tries } }
    }

    struct Scene {
        let sender: WebhookSender
        let registry: PrometheusCollectorRegistry
        let webhook: CreatedWebhook

        /// `touchstone_webhook_deliveries_total{outcome}`.
        func count(_ outcome: String) -> Int {
            let line = registry.emitToString().split(separator: "\n").first {
                $0.hasPrefix("touchstone_webhook_deliveries_total{") && $0.contains(#"outcome="\#(outcome)""#)
            }
            return line.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
        }
    }

    /// Answers every host with one address.
    struct OneAddressResolver: HostResolver {
        let address: [UInt8]

        func addresses(of host: String) async throws -> [[UInt8]] { [address] }
    }

    /// A webhook to `url` with its test event queued, and a sender of the outbox through `gateway` that logs to
    /// `logger` (nowhere by default).
    func makeScene(_ h: Harness, url: String, gateway: any WebhookGateway, logger: Logger? = nil) async throws -> Scene {
        let logger = logger ?? Logger(label: "webhooks") { _ in SwiftLogNoOpLogHandler() }
        let webhook = try await h.runtime.services.webhooks.create(
            WebhookInput(url: url, events: ["pin.locked"]), by: .commandLine)
        try await h.runtime.services.webhooks.test(webhook.webhookId, by: .commandLine)
        let registry = PrometheusCollectorRegistry()
        let courier = WebhookCourier(
            store: h.store, gateway: gateway, now: { [clock = h.clock] in clock.now() }, logger: logger,
            metrics: PrometheusMetricsFactory(registry: registry))
        let sender = WebhookSender(
            queue: h.store.webhookOutbox, courier: courier, now: { [clock = h.clock] in clock.now() }, logger: logger,
            after: AsyncStream { $0.finish() })
        return Scene(sender: sender, registry: registry, webhook: webhook)
    }

    @Test func aTestEventIsDeliveredSignedAndItsRetryKeepsItsIdWithANewTimestamp() async throws {
        try await Harness.run { h in
            try await withWebhookReceiver { receiver in
                let path = "/hooks/a"
                try receiver.setAnswers(["503", "200"], for: path)
                let scene = try await makeScene(h, url: receiver.url + path, gateway: try WebhookClient())
                try receiver.setSecret(scene.webhook.secret, for: path)
                #expect(try await scene.sender.sendDue() == 1)  // 503
                h.clock.advance(by: 4.5)
                #expect(try await scene.sender.sendDue() == 0)  // due 5 s after the first try
                h.clock.advance(by: 0.5)
                #expect(try await scene.sender.sendDue() == 1)  // 200
                h.clock.advance(by: 3600)
                #expect(try await scene.sender.sendDue() == 0)  // once
                let requests = try await receiver.requests(atLeast: 2, path: path)
                #expect(requests.count == 2)
                #expect(requests.map(\.verification) == [.verified, .verified])
                let ids = requests.compactMap { $0.headers["webhook-id"] }
                #expect(ids.count == 2 && ids[0] == ids[1])
                let timestamps = requests.compactMap { $0.headers["webhook-timestamp"].flatMap { Int($0) } }
                #expect(timestamps.count == 2 && timestamps[1] - timestamps[0] == 5)
                #expect(requests[0].body == requests[1].body)
                let body = try requests[0].json()
                #expect(body["type"] as? String == "webhook.test")
                #expect(Set(body.keys) == ["type", "timestamp", "data"])
                #expect(scene.count("retried") == 1 && scene.count("delivered") == 1)
                #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            }
        }
    }

    @Test func aGoneAnswerEndsTheDeliveryAndDisablesTheWebhook() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h, url: "https://localhost/hooks/gone", gateway: ScriptedReceiver([.gone]))
            #expect(try await scene.sender.sendDue() == 1)
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            let listed = try await h.runtime.services.webhooks.list().webhooks
            #expect(listed.map(\.webhookId) == [scene.webhook.webhookId])
            #expect(listed.first?.disabledAt != nil)
            await #expect(throws: ProblemError.self) {
                try await h.runtime.services.webhooks.test(scene.webhook.webhookId, by: .commandLine)
            }
            #expect(scene.count("gone") == 1)
        }
    }

    @Test func triesComeAfterFiveSecondsThenDoublingAtMostAnHourApartAndEndADayAfterTheEvent() async throws {
        try await Harness.run { h in
            let receiver = ScriptedReceiver([.retry(reason: "HTTP 503", retryAfter: nil)])
            let scene = try await makeScene(h, url: "https://localhost/hooks/down", gateway: receiver)
            let queuedAt = h.now
            var waits: [TimeInterval] = []
            var wait: TimeInterval = 5
            #expect(try await scene.sender.sendDue() == 1)
            while h.now.addingTimeInterval(wait) < queuedAt.addingTimeInterval(86_400) {
                h.clock.advance(by: wait - 0.5)
                #expect(try await scene.sender.sendDue() == 0, "before \(wait) s")
                h.clock.advance(by: 0.5)
                #expect(try await scene.sender.sendDue() == 1, "after \(wait) s")
                waits.append(wait)
                wait = min(wait * 2, 3600)
            }
            #expect(Array(waits.prefix(4)) == [5, 10, 20, 40])
            #expect(waits.filter { $0 == 3600 }.count > 10)
            // The next try would come a day or more after the event: given up.
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            #expect(scene.count("failed") == 1 && scene.count("retried") == waits.count)
            #expect(Set(receiver.tries.map(\.id)).count == 1)
            #expect(receiver.tries.map(\.attempts) == Array(0...waits.count))
        }
    }

    @Test func aLongerRetryAfterIsHonouredAndAShorterOneIsNot() async throws {
        try await Harness.run { h in
            let receiver = ScriptedReceiver([
                .retry(reason: "HTTP 429", retryAfter: .seconds(60)), .retry(reason: "HTTP 503", retryAfter: .seconds(2)),
                .delivered,
            ])
            let scene = try await makeScene(h, url: "https://localhost/hooks/busy", gateway: receiver)
            #expect(try await scene.sender.sendDue() == 1)
            for wait: TimeInterval in [60, 10] {
                h.clock.advance(by: wait - 0.5)
                #expect(try await scene.sender.sendDue() == 0, "before \(wait) s")
                h.clock.advance(by: 0.5)
                #expect(try await scene.sender.sendDue() == 1, "after \(wait) s")
            }
            #expect(scene.count("delivered") == 1 && scene.count("retried") == 2)
        }
    }

    /// The link-local rule at delivery: the host now resolves to a link-local address (it did not at creation), so the
    /// try is refused, counted as failed and logged with its ids and reason, never the URL's path or query, the secret
    /// or the body.
    @Test func aDeliveryToAHostThatNowResolvesLinkLocalIsRefusedAndLoggedWithoutSecrets() async throws {
        try await Harness.run { h in
            let lines = RecordingLogHandler.Lines()
            let scene = try await makeScene(
                h, url: "https://localhost/hooks/private-path?key=receiver-secret",
                gateway: try WebhookClient(resolver: OneAddressResolver(address: [169, 254, 169, 254])),
                logger: Logger(label: "webhooks") { _ in RecordingLogHandler(lines: lines) })
            #expect(try await scene.sender.sendDue() == 1)
            #expect(scene.count("retried") == 1 && scene.count("delivered") == 0)
            #expect(try await h.store.webhookOutbox.queuedCount() == 1)
            let logged = lines.all.joined(separator: "\n")
            for expected in ["webhook to be retried", "link-local", scene.webhook.webhookId, "webhook.test"] {
                #expect(logged.contains(expected), "\(expected) in \(logged)")
            }
            let secretBase64 = String(scene.webhook.secret.dropFirst("whsec_".count))
            for secret in ["private-path", "receiver-secret", secretBase64, "{\"type\":"] {
                #expect(!logged.contains(secret), "\(secret) logged: \(logged)")
            }
        }
    }
}
