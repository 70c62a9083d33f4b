import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

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
            #expect(Set(raw.first?.keys.map { $0 } ?? []) == ["kind", "id", "clientId", "publisher", "challenge", "expiresAt", "name", "model", "ip", "requestedAt", "numbers"])
            let item = try h.decode(Inbox.self, inbox).items[0]
            // Number matching: the new device shows one of the three numbers the approver picks among.
            let numbers = try #require(item.numbers)
            #expect(numbers.count == 3 && Set(numbers).count == 3 && numbers.allSatisfy { (10...99).contains($0) })
            #expect(numbers.contains(scene.pending.number))
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

            let decision = try await scene.phone.decision(
                deviceId: scene.phoneId, challenge: item.challenge, number: scene.pending.number, now: h.now)
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
            h.devices[deviceId] = scene.tablet
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
            let right = try await scene.phone.decision(
                deviceId: scene.phoneId, challenge: item.challenge, number: scene.pending.number, now: h.now)
            #expect(try await h.decide("enrollments", item.id, right).status == .ok)
        }
    }

    /// Regression: `complete` with the victim's device description and new keys replaced the victim's phone (201, an
    /// `aal2` session, the victim's device revoked). A description is not a credential: it is a new device like any other.
    @Test func theVictimsDeviceDescriptionWithoutItsKeyIsJustANewDevice() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            var attacker = try await TestDevice()
            attacker.description = phone.description
            let response = try await h.completeEnrollment(attacker, try await h.startEnrollment())
            #expect(response.status == .accepted)
            let pending = try h.decode(EnrollmentPending.self, response)
            #expect(try await h.store.device(id: enrolled.deviceId)?.isActive == true)
            // The victim's phone sees the request (same description or not) and denies it.
            let item = try #require(try await h.inboxItems(phone, deviceId: enrolled.deviceId).first { $0.id == pending.enrollmentId })
            let deny = try await phone.decision(deviceId: enrolled.deviceId, challenge: item.challenge, approve: false, now: h.now)
            #expect(try h.decode(DecisionRecorded.self, try await h.decide("enrollments", item.id, deny)).status == .denied)
            #expect(try await poll(h, pending).status == .denied)
            #expect(try await h.store.device(id: enrolled.deviceId)?.isActive == true)
            #expect(try await h.login(phone, deviceId: enrolled.deviceId).status == .created)
        }
    }

    @Test func approvingWithAnotherNumberDeniesTheNewDevice() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let item = try await enrolmentItem(h, scene)
            let other = try #require(item.numbers?.first { $0 != scene.pending.number })
            let blind = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, number: other, now: h.now)
            #expect(try h.decode(DecisionRecorded.self, try await h.decide("enrollments", item.id, blind)).status == .denied)
            #expect(try await poll(h, scene.pending).status == .denied)
            #expect(try await h.store.devices(userId: scene.phoneSession.userId).count == 1)
        }
    }

    @Test func anApprovalWithoutANumberDeniesTheNewDevice() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let item = try await enrolmentItem(h, scene)
            let blind = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, now: h.now)
            #expect(try h.decode(DecisionRecorded.self, try await h.decide("enrollments", item.id, blind)).status == .denied)
            #expect(try await poll(h, scene.pending).status == .denied)
        }
    }

    /// Regression: a password holder sent 8 approval requests in a row to the victim's phone.
    @Test func oneApprovalAtATimeFivePerHourAndNoneForFifteenMinutesAfterADenial() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            func another() async throws -> TestResponse {
                try await h.completeEnrollment(try await TestDevice(), try await h.startEnrollment())
            }
            // A second request while one is pending: 429, and nothing more reaches the phone.
            let second = try await another()
            try h.expectProblem(second, 429, .tooManyAttempts)
            #expect(second.headers[.retryAfter] != nil)
            #expect(try await h.inboxItems(scene.phone, deviceId: scene.phoneId).map(\.id) == [scene.pending.enrollmentId])
            // A denial: none for 15 minutes.
            let item = try await enrolmentItem(h, scene)
            let deny = try await scene.phone.decision(deviceId: scene.phoneId, challenge: item.challenge, approve: false, now: h.now)
            #expect(try await h.decide("enrollments", item.id, deny).status == .ok)
            h.clock.advance(by: 899)
            try h.expectProblem(try await another(), 429, .tooManyAttempts)
            #expect(try await h.inboxItems(scene.phone, deviceId: scene.phoneId).isEmpty)
            h.clock.advance(by: 2)
            // Then requests that expire unanswered: five in the hour (the first one counts), the sixth refused.
            for _ in 0..<4 {
                #expect(try await another().status == .accepted)
                h.clock.advance(by: 601)
            }
            try h.expectProblem(try await another(), 429, .tooManyAttempts)
            #expect(try await h.inboxItems(scene.phone, deviceId: scene.phoneId).isEmpty)
            h.clock.advance(by: 3_600)
            #expect(try await another().status == .accepted)
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

            let right = try await scene.phone.decision(
                deviceId: scene.phoneId, challenge: item.challenge, number: scene.pending.number, pin: Harness.pin, now: h.now)
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
            let bio = try await scene.phone.decision(
                deviceId: scene.phoneId, challenge: item.challenge, number: scene.pending.number, now: h.now)
            #expect(try await h.decide("enrollments", item.id, bio).status == .ok)
        }
    }

    @Test func aSecondDecisionIsAlreadyDecided() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let item = try await enrolmentItem(h, scene)
            let approve = try await scene.phone.decision(
                deviceId: scene.phoneId, challenge: item.challenge, number: scene.pending.number, now: h.now)
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
