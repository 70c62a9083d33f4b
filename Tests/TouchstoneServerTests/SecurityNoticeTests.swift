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

/// Security notices: each event leaves one in the inbox of the user's other active devices, in the event's own
/// transaction; a device dismisses its own, and they expire after 30 days.
@Suite struct SecurityNoticeTests {
    /// Ana's phone, and her tablet approved by it.
    struct Scene {
        let phone: TestDevice
        let phoneId: String
        let phoneSession: Session
        let tablet: TestDevice
        let tabletId: String
        let tabletSession: Session
    }

    func makeScene(_ h: Harness) async throws -> Scene {
        let phone = try await TestDevice()
        let enrolled = try await h.enroll(phone)
        let tablet = try await TestDevice(name: "Ana's tablet")
        let response = try await h.completeEnrollment(tablet, try await h.startEnrollment())
        let pending = try h.decode(EnrollmentPending.self, response)
        let item = try #require(try await h.inboxItems(phone, deviceId: enrolled.deviceId).first)
        let decision = try await phone.decision(
            deviceId: enrolled.deviceId, challenge: item.challenge, number: pending.number, now: h.now)
        #expect(try await h.decide("enrollments", item.id, decision).status == .ok)
        let poll = try await h.send(
            .get, "/v1/enrollments/\(pending.enrollmentId)", headers: [.pollSecret: pending.pollSecret])
        let approved = try h.decode(EnrollmentPoll.self, poll)
        let tabletId = try #require(approved.deviceId)
        h.devices[tabletId] = tablet
        return Scene(
            phone: phone, phoneId: enrolled.deviceId, phoneSession: enrolled.session, tablet: tablet, tabletId: tabletId,
            tabletSession: try #require(approved.session))
    }

    @Test func aNoticeHasExactlyItsFiveMembersAndEachDeviceItsOwnIds() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            // The approval added the tablet: the phone hears of it, the tablet does not hear of itself.
            let phoneNotices = try await h.notices(scene.phone, deviceId: scene.phoneId)
            #expect(phoneNotices.map(\.event) == [.deviceAdded])
            #expect(phoneNotices.first?.detail.deviceId == scene.tabletId)
            #expect(phoneNotices.first?.detail.deviceName == "Ana's tablet")
            #expect(try await h.notices(scene.tablet, deviceId: scene.tabletId).isEmpty)

            // A third device joins with a code: both earlier devices get device_added and recovery_code_used.
            let code = try await h.createRecoveryCodes(scene.phoneSession)[0]
            let laptop = try await TestDevice(name: "Ana's laptop")
            let joined = try await h.enrollWithCode(laptop, code: code)
            let inbox = try await h.deviceInbox(scene.tablet, deviceId: scene.tabletId)
            let raw = try #require(try h.jsonObject(inbox)["items"] as? [[String: Any]])
            for item in raw {
                #expect(Set(item.keys) == ["kind", "id", "event", "at", "detail"])
                #expect(item["kind"] as? String == "notice")
                let detail = try #require(item["detail"] as? [String: Any])
                #expect(Set(detail.keys).isSubset(of: ["deviceId", "deviceName", "passkeyName", "ip"]))
                // Never a secret: no code, no password.
                let text = String(decoding: try JSONSerialization.data(withJSONObject: item), as: UTF8.self)
                #expect(!text.contains(code) && !text.contains(Harness.password))
            }
            let tabletNotices = try h.decode(Inbox.self, inbox).notices
            // recovery_codes_created came from the phone's session: the tablet hears of it, the phone does not.
            #expect(tabletNotices.map(\.event) == [.recoveryCodesCreated, .deviceAdded, .recoveryCodeUsed])
            #expect(tabletNotices.last?.detail == NoticeDetail(deviceId: joined.deviceId, deviceName: "Ana's laptop", ip: tabletNotices.last?.detail.ip))
            #expect(tabletNotices.last?.detail.ip?.isEmpty == false)
            let phoneLater = try await h.notices(scene.phone, deviceId: scene.phoneId)
            #expect(phoneLater.map(\.event) == [.deviceAdded, .deviceAdded, .recoveryCodeUsed])
            #expect(try await h.notices(laptop, deviceId: joined.deviceId).isEmpty)
            #expect(Set(phoneLater.map(\.id)).isDisjoint(with: tabletNotices.map(\.id)))
            #expect(abs(try #require(phoneLater.last).at.timeIntervalSince(h.now)) < 1)
        }
    }

    @Test func eachEventReachesTheOtherDevicesOnly() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            for (device, id) in [(scene.phone, scene.phoneId), (scene.tablet, scene.tabletId)] {
                for notice in try await h.notices(device, deviceId: id) {
                    #expect(try await h.dismiss(notice.id, device: device, deviceId: id).status == .noContent)
                }
            }
            let privileged = try await h.stepUp(scene.phoneSession)
            // The phone sets the tablet's PIN: the tablet hears of it.
            #expect(
                try await h.send(.put, "/v1/devices/\(scene.tabletId)/pin", json: PINRequest(pin: "583920"),
                    headers: h.bearer(privileged)).status == .noContent)
            #expect(try await h.notices(scene.phone, deviceId: scene.phoneId).isEmpty)
            let pin = try #require(try await h.notices(scene.tablet, deviceId: scene.tabletId).last)
            #expect(pin.event == .pinChanged)
            #expect(pin.detail.deviceId == scene.tabletId)

            // The phone ends the tablet's session: the tablet hears of it.
            let tabletSid = try h.sessionId(scene.tabletSession)
            #expect(try await h.send(.delete, "/v1/sessions/\(tabletSid)", headers: h.bearer(privileged)).status == .noContent)
            #expect(try await h.notices(scene.tablet, deviceId: scene.tabletId).last?.event == .sessionsEnded)
            #expect(try await h.notices(scene.tablet, deviceId: scene.tabletId).last?.detail.deviceId == scene.tabletId)

            // The password changes from the phone.
            #expect(
                try await h.send(.put, "/v1/account/password", json: PasswordRequest(password: "a new password here"),
                    headers: h.bearer(privileged)).status == .noContent)
            #expect(try await h.notices(scene.tablet, deviceId: scene.tabletId).last?.event == .passwordChanged)
            #expect(try await h.notices(scene.phone, deviceId: scene.phoneId).isEmpty)

            // A passkey removed from the phone's session (stored here as registration would store it).
            _ = try await h.store.createPasskey(
                PasskeyRecord(
                    credentialId: "ana-passkey", userId: scene.phoneSession.userId, name: "Ana's laptop",
                    credential: "{}", signCount: 0, backupEligible: false, backupState: false,
                    aaguid: "00000000-0000-0000-0000-000000000000", attestationFormat: "none", createdAt: h.now),
                firstCredentialOnly: false,
                notice: SecurityNotices.draft(
                    .passkeyAdded, userId: scene.phoneSession.userId, passkeyName: "Ana's laptop",
                    actingDevice: scene.phoneId, ip: nil, at: h.now))
            #expect(
                try await h.send(.delete, "/v1/webauthn/credentials/ana-passkey", headers: h.bearer(privileged)).status
                    == .noContent)
            #expect(
                try await h.notices(scene.tablet, deviceId: scene.tabletId).suffix(2).map(\.event)
                    == [.passkeyAdded, .passkeyRemoved])
            #expect(
                try await h.notices(scene.tablet, deviceId: scene.tabletId).last?.detail.passkeyName == "Ana's laptop")
            #expect(try await h.notices(scene.phone, deviceId: scene.phoneId).isEmpty)

            // A binding mismatch revokes the tablet: the phone hears of it.
            let challenge = try await h.challenge(scene.tabletId)
            let assertion = try await scene.tablet.assertion(
                deviceId: scene.tabletId, challenge: challenge, fingerprint: "another-device", now: h.now)
            try h.expectProblem(
                try await h.send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion)),
                409, .bindingMismatch)
            let removed = try #require(try await h.notices(scene.phone, deviceId: scene.phoneId).last)
            #expect(removed.event == .deviceRemoved)
            #expect(removed.detail.deviceId == scene.tabletId)
            #expect(removed.detail.deviceName == "Ana's tablet")

            // The phone removes itself: nobody is left to hear of it but the account's own list.
            let own = try await h.send(.delete, "/v1/devices/\(scene.phoneId)", headers: h.bearer(scene.phoneSession))
            #expect(own.status == .noContent)
            let events = try await h.storedNotices(userId: scene.phoneSession.userId).filter { $0.deviceId == nil }
            #expect(events.last?.event == "device_removed")
        }
    }

    @Test func aRefusedEventLeavesNoNotice() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let userId = scene.phoneSession.userId
            let before = try await h.storedNotices(userId: userId)
            // Refused by the service: a PIN change, new codes and the end of another session without step-up.
            try h.expectProblem(
                try await h.send(.put, "/v1/devices/\(scene.tabletId)/pin", json: PINRequest(pin: "583920"),
                    headers: h.bearer(scene.phoneSession)), 403, .stepUpRequired)
            try h.expectProblem(
                try await h.send(.post, "/v1/account/recovery-codes", headers: h.bearer(scene.phoneSession)), 403,
                .stepUpRequired)
            try h.expectProblem(
                try await h.send(.delete, "/v1/sessions/\(try h.sessionId(scene.tabletSession))",
                    headers: h.bearer(scene.phoneSession)), 403, .stepUpRequired)
            // Refused by the store, inside the event's transaction: a completion whose code is not there (spent or
            // replaced), and a PIN for a revoked device.
            let draft = SecurityNotices.draft(.deviceAdded, userId: userId, actingDevice: nil, ip: "192.0.2.1", at: h.now)
            let started = try await h.startEnrollment()
            let enrollment = try #require(try await h.store.enrollment(id: started.enrollmentId))
            #expect(try await h.store.consumeEnrollmentChallenge(id: enrollment.id, now: h.now))
            let phone = try #require(try await h.store.device(id: scene.phoneId))
            var device = phone
            device.id = RecordID.random()
            let session = SessionRecord(
                id: RecordID.random(), userId: userId, deviceId: device.id, clientId: "com.example.demo", amr: ["bio"],
                acr: "aal2", authTime: h.now, lastActivityAt: h.now, createdAt: h.now)
            #expect(
                try await h.store.completeEnrollment(
                    id: enrollment.id, device: device, replacing: nil, condition: .recoveryCode(hash: "not-a-code"),
                    session: session, refreshTokenHash: "hash", notices: [draft]) == .recoveryCodeSpent)
            #expect(try await h.store.device(id: device.id) == nil)
            #expect(try await h.store.enrollment(id: enrollment.id)?.state == .consumed)
            // The same completion whose last statement fails (a device id that exists) leaves nothing either.
            var duplicate = device
            duplicate.id = scene.tabletId
            await #expect(throws: (any Error).self) {
                try await h.store.completeEnrollment(
                    id: enrollment.id, device: duplicate, replacing: nil, condition: .none, session: session,
                    refreshTokenHash: "hash", notices: [draft])
            }
            #expect(try await h.store.enrollment(id: enrollment.id)?.state == .consumed)
            _ = try await h.store.revokeDevice(id: scene.tabletId, reason: "test", at: h.now, notices: [])
            let afterRevocation = try await h.storedNotices(userId: userId)
            #expect(!(try await h.store.setPIN(deviceId: scene.tabletId, pinHash: "x", notice: draft)))
            #expect(try await h.storedNotices(userId: userId).count == afterRevocation.count)
            #expect(afterRevocation.count == before.count)
        }
    }

    @Test func aDeviceDismissesItsOwnNoticesOnly() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            _ = try await h.createRecoveryCodes(scene.tabletSession)
            let phoneNotice = try #require(try await h.notices(scene.phone, deviceId: scene.phoneId).last)
            #expect(phoneNotice.event == .recoveryCodesCreated)
            // The tablet cannot dismiss the phone's notice, nor a request; the phone's token names the phone only.
            try h.expectProblem(
                try await h.dismiss(phoneNotice.id, device: scene.tablet, deviceId: scene.tabletId), 404, .notFound)
            let pending = try await h.completeEnrollment(try await TestDevice(name: "x"), try await h.startEnrollment())
            let enrollmentId = try h.decode(EnrollmentPending.self, pending).enrollmentId
            try h.expectProblem(
                try await h.dismiss(enrollmentId, device: scene.phone, deviceId: scene.phoneId), 404, .notFound)
            try h.expectProblem(
                try await h.dismiss("unknown", device: scene.phone, deviceId: scene.phoneId), 404, .notFound)
            try h.expectProblem(
                try await h.dismiss(phoneNotice.id, device: scene.tablet, deviceId: scene.phoneId), 401,
                .invalidDeviceProof)
            #expect(try await h.dismiss(phoneNotice.id, device: scene.phone, deviceId: scene.phoneId).status == .noContent)
            try h.expectProblem(
                try await h.dismiss(phoneNotice.id, device: scene.phone, deviceId: scene.phoneId), 404, .notFound)
            #expect(!(try await h.notices(scene.phone, deviceId: scene.phoneId).contains { $0.id == phoneNotice.id }))
            // The request is still there for the phone's decision.
            #expect(try await h.inboxItems(scene.phone, deviceId: scene.phoneId).map(\.id) == [enrollmentId])
        }
    }

    @Test func noticesExpireAfterThirtyDays() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            #expect(try await h.notices(scene.phone, deviceId: scene.phoneId).count == 1)
            h.clock.advance(by: 30 * 86_400 - 60)
            #expect(try await h.notices(scene.phone, deviceId: scene.phoneId).count == 1)
            h.clock.advance(by: 61)
            #expect(try await h.notices(scene.phone, deviceId: scene.phoneId).isEmpty)
            try await h.store.purgeExpired(now: h.now)
            #expect(try await h.storedNotices(userId: scene.phoneSession.userId).isEmpty)
        }
    }

    @Test func anActionFromAWebSessionOrAnAdministratorNotifiesEveryDevice() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            for (device, id) in [(scene.phone, scene.phoneId), (scene.tablet, scene.tabletId)] {
                for notice in try await h.notices(device, deviceId: id) {
                    #expect(try await h.dismiss(notice.id, device: device, deviceId: id).status == .noContent)
                }
            }
            // A web login approved on the phone is an aal2 session without a device.
            let started = try h.decode(
                WebLoginStarted.self, try await h.send(.post, "/v1/web-logins", json: WebLoginRequest(username: "ana")))
            let item = try #require(try await h.inboxItems(scene.phone, deviceId: scene.phoneId).first)
            let decision = try await scene.phone.decision(
                deviceId: scene.phoneId, challenge: item.challenge, number: started.number, now: h.now)
            #expect(try await h.decide("web-logins", item.id, decision).status == .ok)
            let polled = try h.decode(
                WebLoginPoll.self,
                try await h.send(.get, "/v1/web-logins/\(started.webLoginId)", headers: [.pollSecret: started.pollSecret]))
            let web = try #require(polled.session)
            _ = try await h.createRecoveryCodes(web)
            #expect(try await h.notices(scene.phone, deviceId: scene.phoneId).map(\.event) == [.recoveryCodesCreated])
            #expect(try await h.notices(scene.tablet, deviceId: scene.tabletId).map(\.event) == [.recoveryCodesCreated])
            // The account's own list (the web page's) has every notice once.
            let account = try h.decode(
                AccountNotices.self, try await h.send(.get, "/v1/account/notices", headers: h.bearer(web)))
            #expect(account.notices.map(\.event) == [.deviceAdded, .deviceAdded, .recoveryCodesCreated])

        }
    }
}
