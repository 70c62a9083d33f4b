import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import Synchronization
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDelivery
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// What the sender does with each answer of a push service: a delivered push is finished, a token the service no
/// longer knows loses its registration, a busy service is tried again with exponential backoff (at most eight tries,
/// never after the item expires), and any other answer is given up; each try is counted.
@Suite struct PushSenderTests {
    /// Answers every push with the next of `answers` (the last one again when they run out), and records the pushes.
    final class ScriptedGateway: PushGateway {
        private let state: Mutex<(answers: [PushAnswer], sent: [QueuedPush], credentials: [PushCredentials])>

        init(_ answers: [PushAnswer]) {
            state = Mutex((answers, [], []))
        }

        func send(_ push: QueuedPush, credentials: PushCredentials) async -> PushAnswer {
            state.withLock { state in
                state.sent.append(push)
                state.credentials.append(credentials)
                return state.answers.count > 1 ? state.answers.removeFirst() : state.answers[0]
            }
        }

        var sent: [QueuedPush] { state.withLock { $0.sent } }
        var credentials: [PushCredentials] { state.withLock { $0.credentials } }
    }

    struct Scene {
        let sender: PushSender
        let gateway: ScriptedGateway
        let registry: PrometheusCollectorRegistry
        let phoneId: String
        let key: String
    }

    static let apns = APNsCredentials(keyPEM: "pem", keyId: "ABCDE12345", teamId: "TEAM123456", topics: ["com.example.demo"])

    func makeScene(_ h: Harness, answers: [PushAnswer]) async throws -> Scene {
        let phone = try await TestDevice()
        let enrolled = try await h.enroll(phone)
        try await h.store.registerPush(
            PushRegistration(
                deviceId: enrolled.deviceId, provider: .apns, token: String(repeating: "cd", count: 32),
                topic: "com.example.demo", environment: .production, registeredAt: h.now))
        _ = try await h.store.updatePushCredentials(clientId: "com.example.demo", apns: .set(Self.apns), fcm: .keep, at: h.now)
        let gateway = ScriptedGateway(answers)
        let registry = PrometheusCollectorRegistry()
        let clock = h.clock
        let sender = PushSender(
            store: h.store, gateway: gateway, now: { clock.now() }, logger: Logger(label: "test"),
            metrics: PrometheusMetricsFactory(registry: registry), after: AsyncStream { $0.finish() })
        return Scene(
            sender: sender, gateway: gateway, registry: registry, phoneId: enrolled.deviceId,
            key: try await h.newAPIKey(for: "com.example.demo"))
    }

    func confirmation(_ h: Harness, _ scene: Scene) async throws {
        let response = try await h.send(
            .post, "/v1/confirmations", json: DecisionPolicyTests.payment, headers: [.authorization: "ApiKey \(scene.key)"])
        #expect(response.status == .created)
    }

    /// Claims what is due and tries each, as one turn of the sender's loop does.
    func turn(_ h: Harness, _ scene: Scene) async throws -> Int {
        let claimed = try await h.store.pushOutbox.claimDue(
            claimant: scene.sender.claimant, now: h.now, leaseUntil: h.now + PushSender.claimLease, limit: 10)
        for push in claimed { await scene.sender.deliver(push) }
        return claimed.count
    }

    func sentCount(_ scene: Scene, _ outcome: String) -> Int {
        let line = scene.registry.emitToString().split(separator: "\n").first {
            $0.hasPrefix("touchstone_push_sent_total{") && $0.contains(#"outcome="\#(outcome)""#)
                && $0.contains(#"provider="apns""#)
        }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
    }

    @Test func aDeliveredPushIsFinishedWithTheAppsCredentials() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h, answers: [.delivered])
            try await confirmation(h, scene)
            #expect(try await turn(h, scene) == 1)
            #expect(scene.gateway.credentials == [PushCredentials(apns: Self.apns)])
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
            #expect(sentCount(scene, "delivered") == 1)
        }
    }

    @Test func theSenderSendsWhatIsQueuedReportsTheQueueAndStopsOnGracefulShutdown() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h, answers: [.delivered])
            try await confirmation(h, scene)
            try await confirmation(h, scene)
            let group = ServiceGroup(
                configuration: .init(services: [.init(service: scene.sender)], logger: Logger(label: "test")))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let deadline = ContinuousClock.now + .seconds(30)
                while scene.gateway.sent.count < 2 || gauge(scene, "touchstone_push_queued") != 0 {
                    try #require(ContinuousClock.now < deadline, "sent \(scene.gateway.sent.count)")
                    try await Task.sleep(for: .milliseconds(50))
                }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            #expect(scene.gateway.sent.count == 2)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
        }
    }

    func gauge(_ scene: Scene, _ name: String) -> Double? {
        scene.registry.emitToString().split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    @Test func aTokenTheServiceNoLongerKnowsLosesItsRegistration() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h, answers: [.unregistered(reason: "BadDeviceToken")])
            try await confirmation(h, scene)
            #expect(try await turn(h, scene) == 1)
            #expect(try await h.store.pushRegistration(deviceId: scene.phoneId) == nil)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
            #expect(sentCount(scene, "unregistered") == 1)
        }
    }

    @Test func aBusyServiceIsTriedAgainAfterOneTwoAndFourSecondsOrWhenItAsks() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(
                h,
                answers: [
                    .retry(reason: "503", retryAfter: nil), .retry(reason: "503", retryAfter: nil),
                    .retry(reason: "429", retryAfter: .seconds(10)), .delivered,
                ])
            try await confirmation(h, scene)
            #expect(try await turn(h, scene) == 1)
            for wait: TimeInterval in [1, 2, 10] {
                h.clock.advance(by: wait - 0.5)
                #expect(try await turn(h, scene) == 0, "before \(wait) s")
                h.clock.advance(by: 0.5)
                #expect(try await turn(h, scene) == 1, "after \(wait) s")
            }
            #expect(scene.gateway.sent.map(\.attempts) == [0, 1, 2, 3])
            #expect(Set(scene.gateway.sent.map(\.id)).count == 1)
            #expect(sentCount(scene, "retried") == 3 && sentCount(scene, "delivered") == 1)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
        }
    }

    @Test func aPushIsGivenUpAfterEightTries() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h, answers: [.retry(reason: "503", retryAfter: nil)])
            try await confirmation(h, scene)
            var tries = 0
            while try await turn(h, scene) == 1 {
                // Each retry is due after 1, 2, 4 … s: 255 s in all, within the confirmation's five minutes.
                h.clock.advance(by: pow(2, Double(tries)))
                tries += 1
            }
            #expect(tries == 8)
            #expect(sentCount(scene, "failed") == 1 && sentCount(scene, "retried") == 7)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
        }
    }

    @Test func aRetryThatWouldComeAfterTheItemExpiresIsNotMade() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h, answers: [.retry(reason: "429", retryAfter: .seconds(300))])
            try await confirmation(h, scene)
            #expect(try await turn(h, scene) == 1)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
            #expect(sentCount(scene, "failed") == 1 && sentCount(scene, "retried") == 0)
        }
    }

    @Test func anAnswerThatIsNeitherIsGivenUpAtOnce() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h, answers: [.failed(reason: "TopicDisallowed")])
            try await confirmation(h, scene)
            #expect(try await turn(h, scene) == 1)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
            #expect(try await h.store.pushRegistration(deviceId: scene.phoneId) != nil)
            #expect(sentCount(scene, "failed") == 1)
        }
    }

    @Test func changedCredentialsAreUsedWithinThirtySeconds() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h, answers: [.delivered])
            try await confirmation(h, scene)
            #expect(try await turn(h, scene) == 1)
            var changed = Self.apns
            changed.keyId = "ZZZZZ99999"
            _ = try await h.store.updatePushCredentials(clientId: "com.example.demo", apns: .set(changed), fcm: .keep, at: h.now)
            try await confirmation(h, scene)
            h.clock.advance(by: 29)
            #expect(try await turn(h, scene) == 1)
            try await confirmation(h, scene)
            h.clock.advance(by: 2)
            #expect(try await turn(h, scene) == 1)
            #expect(scene.gateway.credentials.map { $0.apns?.keyId } == ["ABCDE12345", "ABCDE12345", "ZZZZZ99999"])
        }
    }
}
