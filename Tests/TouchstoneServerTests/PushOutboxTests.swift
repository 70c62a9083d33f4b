import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The push outbox: an inbox item queues one push per device that sees it, in the item's own transaction; senders
/// claim due pushes so that two never hold the same one, a lapsed claim is claimed again, and a push whose item was
/// decided, expired or dismissed, or whose device has no registration, is dropped rather than sent.
@Suite struct PushOutboxTests {
    static let lease: TimeInterval = 30

    /// Ana's phone (registered with APNs) and the API key of the demo app.
    struct Scene {
        let phone: TestDevice
        let phoneId: String
        let key: String
    }

    func makeScene(_ h: Harness) async throws -> Scene {
        let phone = try await TestDevice()
        let enrolled = try await h.enroll(phone)
        try await h.store.registerPush(
            PushRegistration(
                deviceId: enrolled.deviceId, provider: .apns, token: String(repeating: "ab", count: 32),
                topic: "com.example.demo", environment: .development, registeredAt: h.now))
        return Scene(phone: phone, phoneId: enrolled.deviceId, key: try await h.newAPIKey(for: "com.example.demo"))
    }

    func confirmation(_ h: Harness, key: String) async throws -> String {
        let response = try await h.send(
            .post, "/v1/confirmations", json: DecisionPolicyTests.payment, headers: [.authorization: "ApiKey \(key)"])
        #expect(response.status == .created)
        return try h.decode(ConfirmationCreated.self, response).confirmationId
    }

    func claim(_ h: Harness, by claimant: String = "a", limit: Int = 10) async throws -> [QueuedPush] {
        try await h.store.pushOutbox.claimDue(
            claimant: claimant, now: h.now, leaseUntil: h.now.addingTimeInterval(Self.lease), limit: limit)
    }

    @Test func aConfirmationQueuesOnePushForTheDeviceNamingOnlyItsKindIdAndDevice() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let id = try await confirmation(h, key: scene.key)
            #expect(try await h.store.pushOutbox.queuedCount() == 1)
            let claimed = try await claim(h)
            #expect(claimed.count == 1)
            let push = try #require(claimed.first)
            #expect(push.reference == PushReference(kind: .confirmation, id: id, deviceId: scene.phoneId))
            #expect(push.clientId == "com.example.demo")
            #expect(push.registration.token == String(repeating: "ab", count: 32))
            #expect(push.attempts == 0)
            // Claimed: nobody else gets it while the claim holds.
            #expect(try await claim(h, by: "b").isEmpty)
            try await h.store.pushOutbox.finish(id: push.id, claimant: "a")
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
        }
    }

    @Test func aPushIsQueuedForEveryDeviceEvenUnregisteredAndDroppedWhenNoneIsThereAtSending() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            try await h.store.removePushRegistration(deviceId: scene.phoneId, token: nil)
            _ = try await confirmation(h, key: scene.key)
            #expect(try await h.store.pushOutbox.queuedCount() == 1)
            #expect(try await claim(h).isEmpty)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
        }
    }

    @Test func twoSendersNeverClaimTheSamePush() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            var ids: Set<String> = []
            // A user has at most a few pending confirmations at once; each is its own push.
            for _ in 0..<6 { ids.insert(try await confirmation(h, key: scene.key)) }
            let store = h.store
            let now = h.now
            let (a, b) = try await (
                store.pushOutbox.claimDue(claimant: "a", now: now, leaseUntil: now + Self.lease, limit: 4),
                store.pushOutbox.claimDue(claimant: "b", now: now, leaseUntil: now + Self.lease, limit: 4)
            )
            let claimedA = Set(a.map(\.reference.id))
            let claimedB = Set(b.map(\.reference.id))
            #expect(claimedA.isDisjoint(with: claimedB))
            #expect(claimedA.union(claimedB) == ids)
        }
    }

    @Test func aLapsedClaimIsClaimedAgainAndTheFirstClaimantCanNoLongerFinishIt() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            _ = try await confirmation(h, key: scene.key)
            #expect(try await claim(h, by: "dead").count == 1)
            h.clock.advance(by: Self.lease - 1)
            #expect(try await claim(h, by: "b").isEmpty)
            h.clock.advance(by: 2)
            let again = try await claim(h, by: "b")
            #expect(again.count == 1)
            // The first sender comes back: its claim is gone, and what it does changes nothing.
            try await h.store.pushOutbox.finish(id: again[0].id, claimant: "dead")
            try await h.store.pushOutbox.retry(id: again[0].id, claimant: "dead", dueAt: h.now)
            #expect(try await h.store.pushOutbox.queuedCount() == 1)
            #expect(try await claim(h, by: "c").isEmpty)
        }
    }

    @Test func aRetryWaitsUntilItIsDueAndCountsTheTry() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            _ = try await confirmation(h, key: scene.key)
            let push = try #require(try await claim(h).first)
            try await h.store.pushOutbox.retry(id: push.id, claimant: "a", dueAt: h.now.addingTimeInterval(4))
            #expect(try await claim(h, by: "b").isEmpty)
            h.clock.advance(by: 4)
            let retried = try #require(try await claim(h, by: "b").first)
            #expect(retried.id == push.id && retried.attempts == 1)
        }
    }

    @Test func noPushAfterTheItemIsDecidedOrExpired() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let decided = try await confirmation(h, key: scene.key)
            let item = try #require(try await h.inboxItems(scene.phone, deviceId: scene.phoneId).first { $0.id == decided })
            let decision = try await scene.phone.decision(
                deviceId: scene.phoneId, challenge: item.challenge, txn: DecisionPolicyTests.txn, now: h.now)
            #expect(try await h.decide("confirmations", decided, decision).status == .ok)
            #expect(try await claim(h).isEmpty)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)

            _ = try await confirmation(h, key: scene.key)
            h.clock.advance(by: 3_600)
            #expect(try await claim(h).isEmpty)
            #expect(try await h.store.pushOutbox.queuedCount() == 0)
        }
    }

    @Test func aRevokedDeviceIsNotPushed() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            _ = try await confirmation(h, key: scene.key)
            try await h.runtime.store.provider.write { database in
                try await database.raw("UPDATE devices SET revoked_at = 1 WHERE id = \(bind: scene.phoneId)").run()
            }
            #expect(try await claim(h).isEmpty)
        }
    }

    @Test func aNoticeIsPushedWithItsEventAndADismissedOneIsNot() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            try await insertNotices(h, count: 2, userOf: scene.phoneId)
            let claimed = try await claim(h)
            #expect(claimed.map(\.reference.kind) == [.notice, .notice])
            #expect(claimed.allSatisfy { $0.reference.event == .passwordChanged && $0.reference.deviceId == scene.phoneId })
            // A notice's push waits at most a day.
            #expect(claimed.allSatisfy { abs($0.expiresAt.timeIntervalSince(h.now) - 86_400) < 2 })
            for push in claimed {
                try await h.store.pushOutbox.retry(id: push.id, claimant: "a", dueAt: h.now)
            }
            let dismissed = try #require(claimed.first)
            #expect(try await h.store.dismissNotice(id: dismissed.reference.id, deviceId: scene.phoneId, now: h.now))
            #expect(try await claim(h, by: "b").map(\.id) == [try #require(claimed.last).id])
        }
    }

    @Test func aDeviceHasAtMostAHundredQueuedPushesTheOldestNoticesDroppedFirst() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let request = try await confirmation(h, key: scene.key)
            try await insertNotices(h, count: 99, userOf: scene.phoneId)
            h.clock.advance(by: 1)
            try await insertNotices(h, count: 5, userOf: scene.phoneId)
            #expect(try await h.store.pushOutbox.queuedCount() == 100)
            let claimed = try await claim(h, limit: 200)
            #expect(claimed.count == 100)
            // The confirmation stays; the five oldest notices went.
            #expect(claimed.contains { $0.reference.id == request })
            #expect(claimed.filter { $0.reference.kind == .notice }.count == 99)
        }
    }

    @Test func aTokenReachesOneDeviceAndARefusalRemovesOnlyTheTokenItNamed() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let tablet = try await TestDevice(name: "Ana's tablet")
            let other = try await h.enroll(tablet, username: "bob")
            let token = String(repeating: "ab", count: 32)
            try await h.store.registerPush(
                PushRegistration(deviceId: other.deviceId, provider: .apns, token: token, topic: "t", environment: .production, registeredAt: h.now))
            #expect(try await h.store.pushRegistration(deviceId: scene.phoneId) == nil)
            #expect(try await h.store.pushRegistration(deviceId: other.deviceId)?.environment == .production)
            // The same token string with another provider is another token.
            try await h.store.registerPush(
                PushRegistration(deviceId: scene.phoneId, provider: .fcm, token: token, registeredAt: h.now))
            #expect(try await h.store.pushRegistration(deviceId: other.deviceId) != nil)
            // A refusal for an old token leaves the device's new registration alone.
            #expect(try await h.store.removePushRegistration(deviceId: scene.phoneId, token: "old") == false)
            #expect(try await h.store.pushRegistration(deviceId: scene.phoneId)?.provider == .fcm)
            #expect(try await h.store.removePushRegistration(deviceId: scene.phoneId, token: token))
            #expect(try await h.store.pushRegistration(deviceId: scene.phoneId) == nil)
        }
    }

    @Test func credentialsOfOneProviderChangeWithoutTouchingTheOther() async throws {
        try await Harness.run { h in
            let apns = APNsCredentials(keyPEM: "pem", keyId: "ABCDE12345", teamId: "TEAM123456", topics: ["com.example.demo"])
            let fcm = FCMServiceAccount(
                projectId: "p", clientEmail: "e@p.iam.gserviceaccount.com", privateKeyId: "k", privateKeyPEM: "rsa",
                tokenURI: "https://oauth2.googleapis.com/token")
            let store = h.store
            let app = "com.example.demo"
            #expect(try await store.pushCredentials(clientId: app) == PushCredentials())
            let setAPNs = try await store.updatePushCredentials(clientId: app, apns: .set(apns), fcm: .keep, at: h.now)
            let setFCM = try await store.updatePushCredentials(clientId: app, apns: .keep, fcm: .set(fcm), at: h.now)
            #expect(setAPNs && setFCM)
            #expect(try await store.pushCredentials(clientId: app) == PushCredentials(apns: apns, fcm: fcm))
            let removed = try await store.updatePushCredentials(clientId: app, apns: .remove, fcm: .keep, at: h.now)
            #expect(removed)
            #expect(try await store.pushCredentials(clientId: app) == PushCredentials(fcm: fcm))
            let unknown = try await store.updatePushCredentials(clientId: "no.such.app", apns: .set(apns), fcm: .keep, at: h.now)
            #expect(!unknown)
            #expect(try await store.pushCredentials(clientId: "no.such.app") == PushCredentials())
        }
    }

    /// `count` password-change notices for the user of `deviceId`, each in its own transaction, as events make them.
    func insertNotices(_ h: Harness, count: Int, userOf deviceId: String) async throws {
        let device = try #require(try await h.store.device(id: deviceId))
        let at = h.now
        for _ in 0..<count {
            try await h.runtime.store.provider.transaction { database in
                try await SQLStore.insertNotices(
                    [
                        NoticeDraft(
                            userId: device.userId, event: .passwordChanged, detail: NoticeDetail(), exceptDeviceId: nil,
                            at: at, expiresAt: at.addingTimeInterval(30 * 86_400))
                    ],
                    in: database)
            }
        }
    }
}
