import Foundation
import HTTPTypes
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// Webhook events: queued in the transaction of what they report, one delivery per enabled webhook subscribed to the
/// event, with a body written once; and their outbox, claimed as pushes are.
@Suite struct WebhookEventTests {
    static let lease: TimeInterval = 30

    /// Subscribes a new webhook to `events`.
    @discardableResult
    static func webhook(_ h: Harness, _ events: [WebhookEvent], id: String = RecordID.random()) async throws -> String {
        try await h.store.createWebhook(
            WebhookRecord(
                id: id, url: "https://hooks.example.com/\(id)", events: events,
                secret: WebhookSecret(bytes: Array(repeating: 7, count: 32)), createdAt: h.now))
        return id
    }

    /// Every due delivery, claimed by `claimant`.
    static func claim(_ h: Harness, by claimant: String = "a", limit: Int = 100) async throws -> [QueuedWebhook] {
        try await h.store.webhookOutbox.claimDue(
            claimant: claimant, now: h.now, leaseUntil: h.now.addingTimeInterval(lease), limit: limit)
    }

    /// A body's JSON object.
    static func object(_ body: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }

    /// A body's `data` member.
    static func data(_ delivery: QueuedWebhook) throws -> [String: String] {
        try #require(try object(delivery.body)["data"] as? [String: String])
    }

    static func rfc3339(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }

    /// `event`'s notice for `userId`, in a transaction of its own that then fails when `rollBack` is set.
    static func insertNotice(
        _ h: Harness, _ event: SecurityEvent, userId: String, detail: NoticeDetail = NoticeDetail(),
        rollBack: Bool = false
    ) async throws {
        struct RolledBack: Error {}
        let at = h.now
        do {
            try await h.runtime.store.provider.transaction { database in
                try await SQLStore.insertNotices(
                    [
                        NoticeDraft(
                            userId: userId, event: event, detail: detail, exceptDeviceId: nil, at: at,
                            expiresAt: at.addingTimeInterval(30 * 86_400))
                    ],
                    in: database)
                if rollBack { throw RolledBack() }
            }
        } catch is RolledBack {}
    }

    // MARK: Queued in the transaction of what they report

    @Test func eachNoticeIsQueuedAsItsOwnEventNameAndNotWhenItsTransactionRollsBack() async throws {
        try await Harness.run { h in
            let names: [(SecurityEvent, String)] = [
                (.deviceAdded, "device.added"), (.deviceRemoved, "device.removed"),
                (.passwordChanged, "password.changed"), (.pinChanged, "pin.changed"),
                (.recoveryCodesCreated, "recovery_codes.created"), (.recoveryCodeUsed, "recovery_code.used"),
                (.passkeyAdded, "passkey.added"), (.passkeyRemoved, "passkey.removed"),
                (.sessionsEnded, "sessions.ended"),
            ]
            try await Self.webhook(h, names.map { WebhookEvent(rawValue: $0.1) })
            let userId = try await h.createAccount("ana")
            for (event, _) in names {
                try await Self.insertNotice(h, event, userId: userId, rollBack: true)
            }
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            for (event, _) in names {
                try await Self.insertNotice(h, event, userId: userId)
            }
            let claimed = try await Self.claim(h)
            #expect(Set(claimed.map(\.type)) == Set(names.map(\.1)))
            #expect(claimed.count == names.count)
            for delivery in claimed {
                #expect(try Self.object(delivery.body)["type"] as? String == delivery.type)
                #expect(try Self.data(delivery) == ["userId": userId])
            }
        }
    }

    @Test func theBodyIsExactlyTypeTimestampAndDataWithTheMembersThatApply() async throws {
        try await Harness.run { h in
            try await Self.webhook(h, [.passwordChanged])
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let userId = try #require(try await h.store.device(id: enrolled.deviceId)).userId
            try await Self.insertNotice(
                h, .passwordChanged, userId: userId,
                detail: NoticeDetail(deviceId: enrolled.deviceId, deviceName: "Ana's phone", ip: "203.0.113.9"))
            let delivery = try #require(try await Self.claim(h).first)
            #expect(
                delivery.body
                    == #"{"type":"password.changed","timestamp":"\#(Self.rfc3339(h.now))","data":{"userId":"\#(userId)","#
                    + #""deviceId":"\#(enrolled.deviceId)","clientId":"com.example.demo","ip":"203.0.113.9"}}"#)
            #expect(delivery.id.hasPrefix("msg_"))
            #expect(delivery.url.hasPrefix("https://hooks.example.com/"))
            #expect(delivery.secret == Array(repeating: 7, count: 32))
            #expect(delivery.attempts == 0 && delivery.queuedAt.timeIntervalSince(h.now) > -1)
            // A day, in the whole seconds expiries are stored in.
            #expect(abs(delivery.expiresAt.timeIntervalSince(delivery.queuedAt) - 86_400) < 1)
        }
    }

    @Test func anEventReachesEveryEnabledSubscribedWebhookOnceEachWithItsOwnIdAndTheSameBody() async throws {
        try await Harness.run { h in
            let one = try await Self.webhook(h, [.passwordChanged])
            let two = try await Self.webhook(h, [.pinLocked, .passwordChanged])
            try await Self.webhook(h, [.deviceAdded])
            let disabled = try await Self.webhook(h, [.passwordChanged])
            try await h.store.disableWebhook(id: disabled, at: h.now)
            let userId = try await h.createAccount("ana")
            try await Self.insertNotice(h, .passwordChanged, userId: userId)
            let claimed = try await Self.claim(h)
            #expect(Set(claimed.map(\.webhookId)) == [one, two])
            #expect(claimed.count == 2)
            #expect(Set(claimed.map(\.id)).count == 2)
            #expect(Set(claimed.map(\.body)).count == 1)
        }
    }

    @Test func aLockingWrongPINQueuesPinLockedOnceAndTheWrongPINsBeforeItNothing() async throws {
        try await Harness.run { h in
            try await Self.webhook(h, [.pinLocked])
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let userId = try #require(try await h.store.device(id: enrolled.deviceId)).userId
            for _ in 0..<4 {
                try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, pin: "975310"), 401, .pinIncorrect)
            }
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, pin: "975310"), 423, .pinLocked)
            try h.expectProblem(try await h.login(device, deviceId: enrolled.deviceId, pin: "975310"), 423, .pinLocked)
            let claimed = try await Self.claim(h)
            #expect(claimed.map(\.type) == ["pin.locked"])
            #expect(
                try Self.data(try #require(claimed.first))
                    == ["userId": userId, "deviceId": enrolled.deviceId, "clientId": "com.example.demo"])
        }
    }

    @Test func aReportedCompromiseQueuesDeviceCompromisedOnceAndAnInvalidChallengeNothing() async throws {
        try await Harness.run { h in
            try await Self.webhook(h, [.deviceCompromised])
            try await h.saveApp(AppPolicy(clientId: "com.example.lax", publisher: "demo", refuseCompromisedDevices: false))
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device, clientId: "com.example.lax")
            let userId = try #require(try await h.store.device(id: enrolled.deviceId)).userId
            // A spent challenge: the login is refused before anything is written.
            let spent = try await h.challenge(enrolled.deviceId)
            let first = try await device.assertion(deviceId: enrolled.deviceId, challenge: spent, now: h.now)
            #expect(
                try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.lax", assertion: first))
                    .status == .created)
            let replayed = try await device.assertion(
                deviceId: enrolled.deviceId, challenge: spent, compromised: true, now: h.now)
            #expect(
                try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.lax", assertion: replayed))
                    .status != .created)
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            for _ in 0..<2 {
                let challenge = try await h.challenge(enrolled.deviceId)
                let assertion = try await device.assertion(
                    deviceId: enrolled.deviceId, challenge: challenge, compromised: true, now: h.now)
                #expect(
                    try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.lax", assertion: assertion))
                        .status == .created)
            }
            let claimed = try await Self.claim(h)
            #expect(claimed.map(\.type) == ["device.compromised"])
            #expect(
                try Self.data(try #require(claimed.first))
                    == ["userId": userId, "deviceId": enrolled.deviceId, "clientId": "com.example.lax"])
        }
    }

    @Test func aConfirmationsDecisionIsQueuedOnceWithTheDecision() async throws {
        try await Harness.run { h in
            try await Self.webhook(h, [.confirmationDecided])
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let userId = try #require(try await h.store.device(id: enrolled.deviceId)).userId
            let key = try await h.newAPIKey(for: "com.example.demo")
            let created = try await h.send(
                .post, "/v1/confirmations", json: DecisionPolicyTests.payment, headers: [.authorization: "ApiKey \(key)"])
            let id = try h.decode(ConfirmationCreated.self, created).confirmationId
            let item = try #require(try await h.inboxItems(device, deviceId: enrolled.deviceId).first { $0.id == id })
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            let decision = try await device.decision(
                deviceId: enrolled.deviceId, challenge: item.challenge, approve: false, txn: DecisionPolicyTests.txn,
                now: h.now)
            #expect(try await h.decide("confirmations", id, decision).status == .ok)
            // Decided already: a second decision changes nothing and queues nothing.
            let again = try await device.decision(
                deviceId: enrolled.deviceId, challenge: item.challenge, txn: DecisionPolicyTests.txn, now: h.now)
            #expect(try await h.decide("confirmations", id, again).status != .ok)
            let claimed = try await Self.claim(h)
            #expect(claimed.map(\.type) == ["confirmation.decided"])
            #expect(
                try Self.data(try #require(claimed.first))
                    == [
                        "userId": userId, "deviceId": enrolled.deviceId, "clientId": "com.example.demo",
                        "decision": "deny",
                    ])
        }
    }

    @Test func aCIBADecisionIsQueuedWithTheDecision() async throws {
        try await Harness.run { h in
            try await Self.webhook(h, [.cibaDecided])
            let scene = try await CIBATests.makeScene(h)
            let userId = try #require(try await h.store.device(id: scene.deviceId)).userId
            _ = try await CIBATests.authorized(h, scene)
            let item = try #require(try await CIBATests.cibaItems(h, scene).first)
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            #expect(try await CIBATests.decide(h, scene, item).status == .ok)
            #expect(try await CIBATests.decide(h, scene, item, approve: false).status != .ok)
            let claimed = try await Self.claim(h)
            #expect(claimed.map(\.type) == ["ciba.decided"])
            #expect(
                try Self.data(try #require(claimed.first))
                    == ["userId": userId, "deviceId": scene.deviceId, "clientId": "bank", "decision": "approve"])
        }
    }

    @Test func aUsersResetIsQueuedAndAnUnknownUsersIsNot() async throws {
        try await Harness.run { h in
            try await Self.webhook(h, [.userReset])
            let userId = try await h.createAccount("ana")
            try await h.store.resetUser(userId: "no-such-user", at: h.now)
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            try await h.store.resetUser(userId: userId, at: h.now)
            let claimed = try await Self.claim(h)
            #expect(claimed.map(\.type) == ["user.reset"])
            #expect(try Self.data(try #require(claimed.first)) == ["userId": userId])
        }
    }

    // MARK: Test events, disabling, deleting

    @Test func aTestEventGoesToItsWebhookAloneWhateverItSubscribesTo() async throws {
        try await Harness.run { h in
            let tested = try await Self.webhook(h, [.pinLocked])
            try await Self.webhook(h, [.pinLocked])
            #expect(try await h.store.queueTestEvent(webhookId: tested, at: h.now) == .queued)
            #expect(try await h.store.queueTestEvent(webhookId: "no-such-webhook", at: h.now) == .notFound)
            let claimed = try await Self.claim(h)
            #expect(claimed.map(\.webhookId) == [tested])
            #expect(
                claimed.first?.body == #"{"type":"webhook.test","timestamp":"\#(Self.rfc3339(h.now))","data":{}}"#)
        }
    }

    @Test func disablingDropsTheQueuedDeliveriesAndQueuesNoMore() async throws {
        try await Harness.run { h in
            let disabled = try await Self.webhook(h, [.userReset])
            let kept = try await Self.webhook(h, [.userReset])
            let userId = try await h.createAccount("ana")
            try await h.store.resetUser(userId: userId, at: h.now)
            #expect(try await h.store.webhookOutbox.queuedCount() == 2)
            try await h.store.disableWebhook(id: disabled, at: h.now)
            #expect(try await h.store.webhookOutbox.queuedCount() == 1)
            try await h.store.resetUser(userId: userId, at: h.now)
            #expect(try await h.store.queueTestEvent(webhookId: disabled, at: h.now) == .disabled)
            #expect(try await Self.claim(h).map(\.webhookId) == [kept, kept])
            #expect(try await h.store.webhooks().first { $0.id == disabled }?.disabledAt != nil)
        }
    }

    @Test func deletingAWebhookDropsItsQueuedDeliveriesAndItsSubscriptions() async throws {
        try await Harness.run { h in
            let deleted = try await Self.webhook(h, [.userReset])
            let userId = try await h.createAccount("ana")
            try await h.store.resetUser(userId: userId, at: h.now)
            #expect(try await h.store.deleteWebhook(id: deleted))
            #expect(try await h.store.deleteWebhook(id: deleted) == false)
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            try await h.store.resetUser(userId: userId, at: h.now)
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            #expect(try await h.store.webhooks().isEmpty)
        }
    }

    // MARK: The outbox, shared with pushes and pings

    @Test func twoSendersNeverClaimTheSameDelivery() async throws {
        try await Harness.run { h in
            let webhook = try await Self.webhook(h, [.pinLocked])
            for _ in 0..<6 { #expect(try await h.store.queueTestEvent(webhookId: webhook, at: h.now) == .queued) }
            let store = h.store
            let now = h.now
            let (a, b) = try await (
                store.webhookOutbox.claimDue(claimant: "a", now: now, leaseUntil: now + Self.lease, limit: 4),
                store.webhookOutbox.claimDue(claimant: "b", now: now, leaseUntil: now + Self.lease, limit: 4)
            )
            #expect(Set(a.map(\.id)).isDisjoint(with: Set(b.map(\.id))))
            #expect(a.count + b.count == 6)
        }
    }

    @Test func aLapsedClaimIsClaimedAgainAndARetryKeepsTheIdAndTheBody() async throws {
        try await Harness.run { h in
            let webhook = try await Self.webhook(h, [.pinLocked])
            #expect(try await h.store.queueTestEvent(webhookId: webhook, at: h.now) == .queued)
            let first = try #require(try await Self.claim(h, by: "dead").first)
            h.clock.advance(by: Self.lease - 1)
            #expect(try await Self.claim(h, by: "b").isEmpty)
            h.clock.advance(by: 2)
            let again = try #require(try await Self.claim(h, by: "b").first)
            #expect(again == first)
            // The first sender's claim is gone: what it does changes nothing.
            try await h.store.webhookOutbox.finish(id: first.id, claimant: "dead")
            #expect(try await h.store.webhookOutbox.queuedCount() == 1)
            try await h.store.webhookOutbox.retry(id: again.id, claimant: "b", dueAt: h.now.addingTimeInterval(5))
            h.clock.advance(by: 5)
            let retried = try #require(try await Self.claim(h, by: "c").first)
            #expect(retried.id == first.id && retried.body == first.body && retried.attempts == 1)
            try await h.store.webhookOutbox.finish(id: retried.id, claimant: "c")
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
        }
    }

    @Test func aDeliveryIsTriedForADayAndDroppedAfter() async throws {
        try await Harness.run { h in
            let webhook = try await Self.webhook(h, [.pinLocked])
            #expect(try await h.store.queueTestEvent(webhookId: webhook, at: h.now) == .queued)
            let delivery = try #require(try await Self.claim(h).first)
            try await h.store.webhookOutbox.retry(id: delivery.id, claimant: "a", dueAt: delivery.expiresAt)
            h.clock.advance(by: 86_400)
            #expect(try await Self.claim(h).isEmpty)
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
        }
    }
}
