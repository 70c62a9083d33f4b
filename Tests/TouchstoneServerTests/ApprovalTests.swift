import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneServer

/// A new device of a user who already has one waits for approval from the inbox of an existing device.
@Suite struct ApprovalTests {
    /// Ana's first device, enrolled directly, and a second device whose enrolment waits for approval.
    struct Scene {
        let phone: TestDevice
        let phoneId: String
        let phoneSession: Session
        let tablet: TestDevice
        let pending: EnrollmentPending
    }

    func makeScene(_ h: Harness) async throws -> Scene {
        let phone = try await TestDevice()
        let enrolled = try await h.enroll(phone)
        let tablet = try await TestDevice(biometric: true, name: "Ana's tablet")
        let response = try await h.completeEnrollment(tablet, try await h.startEnrollment())
        #expect(response.status == .accepted)
        return Scene(
            phone: phone, phoneId: enrolled.deviceId, phoneSession: enrolled.session, tablet: tablet,
            pending: try h.decode(EnrollmentPending.self, response))
    }

    func poll(_ h: Harness, _ pending: EnrollmentPending) async throws -> EnrollmentPoll {
        let response = try await h.send(
            .get, "/v1/enrollments/\(pending.enrollmentId)", headers: [.pollSecret: pending.pollSecret])
        #expect(response.status == .ok)
        return try h.decode(EnrollmentPoll.self, response)
    }

    /// The enrolment item in the phone's inbox.
    func enrolmentItem(_ h: Harness, _ scene: Scene) async throws -> InboxItem {
        let items = try await h.inboxItems(scene.phone, deviceId: scene.phoneId)
        #expect(items.count == 1)
        return try #require(items.first { $0.kind == .enrollment })
    }

    @Test func theExistingDeviceSeesTheNewOneAndApprovesIt() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            #expect(try await poll(h, scene.pending).status == .pending)
            let inbox = try await h.deviceInbox(scene.phone, deviceId: scene.phoneId)
            let raw = try #require(try h.jsonObject(inbox)["items"] as? [[String: Any]])
            #expect(raw.count == 1)
            #expect(Set(raw.first?.keys.map { $0 } ?? []) == ["kind", "id", "clientId", "publisher", "challenge", "expiresAt", "name", "model", "ip", "requestedAt"])
            let item = try h.decode(Inbox.self, inbox).items[0]
            #expect(item.kind == .enrollment)
            #expect(item.id == scene.pending.enrollmentId)
            #expect(item.name == "Ana's tablet")
            #expect(item.model == scene.tablet.description.model)
            #expect(item.ip?.isEmpty == false)
            #expect(abs(try #require(item.requestedAt).timeIntervalSince(h.now)) < 1)
            #expect(item.clientId == "com.example.demo")
            #expect(item.publisher == "demo")
            #expect(Base64URL.decode(item.challenge)?.count == 32)
            #expect(abs(item.expiresAt.timeIntervalSince(scene.pending.expiresAt)) < 1)

            let decision = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now)
            let decided = try await h.decide("enrollments", item.id, decision)
            #expect(decided.status == .ok)
            #expect(String(buffer: decided.body) == #"{"status":"approved"}"#)
            #expect(try await h.inboxItems(scene.phone, deviceId: scene.phoneId).isEmpty)

            // The session comes once.
            let first = try await poll(h, scene.pending)
            #expect(first.status == .approved)
            let deviceId = try #require(first.deviceId)
            let session = try #require(first.session)
            #expect(session.deviceId == deviceId)
            #expect(session.acr == "aal2")
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(session)).status == .ok)
            let second = try await poll(h, scene.pending)
            #expect(second.status == .approved)
            #expect(second.session == nil)
            let stored = try #require(try await h.store.device(id: deviceId))
            #expect(stored.fingerprint == scene.tablet.fingerprint)
            #expect(stored.deviceKeyThumbprint == scene.tablet.deviceKey.publicKey.thumbprint)

            // The new device logs in by itself, biometric and PIN.
            #expect(try await h.login(scene.tablet, deviceId: deviceId).status == .created)
            #expect(try await h.login(scene.tablet, deviceId: deviceId, pin: Harness.pin).status == .created)
        }
    }

    @Test func aDenialEndsTheEnrolment() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let item = try await enrolmentItem(h, scene)
            let decision = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, approve: false, now: h.now)
            let decided = try await h.decide("enrollments", item.id, decision)
            #expect(decided.status == .ok)
            #expect(try h.decode(DecisionRecorded.self, decided).status == .denied)
            let polled = try await poll(h, scene.pending)
            #expect(polled.status == .denied)
            #expect(polled.deviceId == nil)
            #expect(polled.session == nil)
            #expect(try await h.store.devices(userId: scene.phoneSession.userId).map(\.id) == [scene.phoneId])
            #expect(try await h.inboxItems(scene.phone, deviceId: scene.phoneId).isEmpty)
            let again = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now)
            try h.expectProblem(try await h.decide("enrollments", item.id, again), 409, .alreadyDecided)
        }
    }

    @Test func onlyTheUsersOtherDevicesCanDecide() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let item = try await enrolmentItem(h, scene)
            let bobDevice = try await TestDevice(name: "Bob's phone")
            let bob = try await h.enroll(bobDevice, username: "bob")
            #expect(try await h.inboxItems(bobDevice, deviceId: bob.deviceId).isEmpty)
            let bobs = try await bobDevice.decision(deviceId: bob.deviceId, challenge: item.challenge, now: h.now)
            try h.expectProblem(try await h.decide("enrollments", item.id, bobs), 401, .challengeInvalid)
            // Bob's device signing in the phone's name does not verify.
            let forged = try await bobDevice.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now)
            try h.expectProblem(try await h.decide("enrollments", item.id, forged), 401, .invalidAssertion)
            // The wrong challenge.
            let wrongChallenge = try await scene.phone.decision(deviceId: scene.phoneId, challenge: "bm90LXRoZS1jaGFsbGVuZ2U", now: h.now)
            try h.expectProblem(try await h.decide("enrollments", item.id, wrongChallenge), 401, .challengeInvalid)
            try h.expectProblem(try await h.decide("enrollments", item.id, "garbage"), 401, .invalidAssertion)
            try h.expectProblem(
                try await h.decide("enrollments", "unknown", try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now - 1)),
                404, .notFound)
            #expect(try await poll(h, scene.pending).status == .pending)
            // The item is still there and can be approved.
            let right = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now)
            #expect(try await h.decide("enrollments", item.id, right).status == .ok)
        }
    }

    @Test func aDeviceCannotApproveItsOwnReEnrolment() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            // Approve the tablet first, so that the user has two active devices.
            let item = try await enrolmentItem(h, scene)
            _ = try await h.decide("enrollments", item.id, try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now))
            let tabletId = try #require(try await poll(h, scene.pending).deviceId)
            // The tablet enrols again (same fingerprint, new keys): the phone must approve, not the tablet itself.
            var again = try await TestDevice(name: "Ana's tablet")
            again.description = scene.tablet.description
            let response = try await h.completeEnrollment(again, try await h.startEnrollment())
            #expect(response.status == .accepted)
            let pending = try h.decode(EnrollmentPending.self, response)
            #expect(try await h.inboxItems(scene.tablet, deviceId: tabletId).isEmpty)
            let phoneItems = try await h.inboxItems(scene.phone, deviceId: scene.phoneId)
            let reEnrolment = try #require(phoneItems.first { $0.id == pending.enrollmentId })
            let own = try await scene.tablet.decision(deviceId: tabletId, challenge: reEnrolment.challenge, now: h.now)
            try h.expectProblem(try await h.decide("enrollments", pending.enrollmentId, own), 401, .challengeInvalid)
            let ownByPIN = try await scene.tablet.decision(deviceId: tabletId, challenge: reEnrolment.challenge, pin: Harness.pin, now: h.now)
            try h.expectProblem(try await h.decide("enrollments", pending.enrollmentId, ownByPIN), 401, .challengeInvalid)
            #expect(try await poll(h, pending).status == .pending)
        }
    }

    @Test func approvalWithTheDeviceKeyAndPINCountsWrongPINs() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let item = try await enrolmentItem(h, scene)
            let wrong = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, pin: "975310", now: h.now)
            let refused = try h.expectProblem(try await h.decide("enrollments", item.id, wrong), 401, .pinIncorrect)
            #expect(refused.attemptsRemaining == 4)
            #expect(try await h.store.device(id: scene.phoneId)?.pinFailures == 1)
            // The same token again is a replay, not a second wrong PIN.
            try h.expectProblem(try await h.decide("enrollments", item.id, wrong), 401, .challengeInvalid)
            #expect(try await h.store.device(id: scene.phoneId)?.pinFailures == 1)
            #expect(try await poll(h, scene.pending).status == .pending)

            let right = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, pin: Harness.pin, now: h.now)
            let decided = try await h.decide("enrollments", item.id, right)
            #expect(decided.status == .ok)
            #expect(try h.decode(DecisionRecorded.self, decided).status == .approved)
            #expect(try await h.store.device(id: scene.phoneId)?.pinFailures == 0)
            let polled = try await poll(h, scene.pending)
            #expect(polled.status == .approved)
            #expect(polled.session != nil)
        }
    }

    @Test func aLockedPINCannotApprove() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let item = try await enrolmentItem(h, scene)
            for _ in 0..<4 {
                try h.expectProblem(try await h.login(scene.phone, deviceId: scene.phoneId, pin: "975310"), 401, .pinIncorrect)
            }
            let wrong = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, pin: "975310", now: h.now)
            try h.expectProblem(try await h.decide("enrollments", item.id, wrong), 423, .pinLocked)
            let right = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, pin: Harness.pin, now: h.now)
            try h.expectProblem(try await h.decide("enrollments", item.id, right), 423, .pinLocked)
            // The fingerprint still works.
            let bio = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now)
            #expect(try await h.decide("enrollments", item.id, bio).status == .ok)
        }
    }

    @Test func aSecondDecisionIsAlreadyDecided() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let item = try await enrolmentItem(h, scene)
            let approve = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now)
            #expect(try await h.decide("enrollments", item.id, approve).status == .ok)
            let deny = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, approve: false, now: h.now)
            try h.expectProblem(try await h.decide("enrollments", item.id, deny), 409, .alreadyDecided)
            // A replay of the approving token is a used token.
            try h.expectProblem(try await h.decide("enrollments", item.id, approve), 401, .challengeInvalid)
            #expect(try await poll(h, scene.pending).status == .approved)
        }
    }

    @Test func anExpiredEnrolmentCannotBeDecided() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let item = try await enrolmentItem(h, scene)
            h.clock.advance(by: 601)
            #expect(try await h.inboxItems(scene.phone, deviceId: scene.phoneId).isEmpty)
            let late = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now)
            try h.expectProblem(try await h.decide("enrollments", item.id, late), 410, .expired)
            #expect(try await poll(h, scene.pending).status == .expired)
            #expect(try await h.store.devices(userId: scene.phoneSession.userId).count == 1)
        }
    }
}
