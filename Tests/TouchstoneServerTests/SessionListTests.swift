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

/// `GET /v1/sessions` and `DELETE /v1/sessions/{id}`, and sessions that end with the device that approved them.
@Suite struct SessionListTests {
    /// A web login of `username` approved on `device`: the browser's session.
    func webLogin(_ h: Harness, approvedBy device: TestDevice, deviceId: String, username: String = "ana") async throws
        -> Session
    {
        let started = try h.decode(
            WebLoginStarted.self, try await h.send(.post, "/v1/web-logins", json: WebLoginRequest(username: username)))
        let item = try #require(try await h.inboxItems(device, deviceId: deviceId).first { $0.kind == .webLogin })
        let decision = try await device.decision(deviceId: deviceId, challenge: item.challenge, number: started.number, now: h.now)
        #expect(try await h.decide("web-logins", item.id, decision).status == .ok)
        let polled = try h.decode(
            WebLoginPoll.self,
            try await h.send(.get, "/v1/web-logins/\(started.webLoginId)", headers: [.pollSecret: started.pollSecret]))
        return try #require(polled.session)
    }

    @Test func theListShowsTheUsersLiveSessionsAndWhichIsTheCallers() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let web = try await h.pageSession()
            let again = try h.decode(Session.self, try await h.login(phone, deviceId: enrolled.deviceId))
            let bob = try await h.enroll(try await TestDevice(name: "Bob's phone"), username: "bob")

            let response = try await h.send(.get, "/v1/sessions", headers: h.bearer(web))
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let raw = try #require(try h.jsonObject(response)["sessions"] as? [[String: Any]])
            #expect(raw.allSatisfy {
                Set($0.keys) == ["sessionId", "clientId", "deviceId", "amr", "acr", "createdAt", "lastActivityAt", "ip", "current"]
            })
            let sessions = try h.decode(SessionList.self, response).sessions
            #expect(Set(sessions.map(\.sessionId)) == Set([enrolled.session, web, again].map { try! h.sessionId($0) }))
            #expect(!sessions.contains { $0.sessionId == (try? h.sessionId(bob.session)) })
            let current = try #require(sessions.first { $0.current })
            #expect(current.sessionId == (try h.sessionId(web)))
            #expect(current.deviceId == nil)
            #expect(current.amr == ["pwd"] && current.acr == "aal1")
            #expect(current.ip?.isEmpty == false)
            let device = try #require(sessions.first { $0.sessionId == (try? h.sessionId(again)) })
            #expect(device.deviceId == enrolled.deviceId && device.amr == ["bio"] && device.acr == "aal2")
            #expect(device.clientId == "com.example.demo")
            #expect(abs(device.createdAt.timeIntervalSince(h.now)) < 1)
            #expect(abs(device.lastActivityAt.timeIntervalSince(h.now)) < 1)
            #expect(sessions.filter(\.current).count == 1)

            // Logged out: no longer listed.
            #expect(try await h.send(.delete, "/v1/sessions/current", headers: h.bearer(enrolled.session)).status == .noContent)
            #expect(!(try await h.sessions(web)).contains { $0.sessionId == (try? h.sessionId(enrolled.session)) })

            // Idle past the app's inactivity timeout (900 s): not live, even before it is ended. The caller's token
            // lasts 600 s, so the caller refreshes; the others do not.
            h.clock.advance(by: 500)
            let refreshed = try h.decode(
                Session.self,
                try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: web.refreshToken)))
            h.clock.advance(by: 450)
            let live = try await h.sessions(refreshed)
            #expect(live.map(\.sessionId) == [try h.sessionId(web)])
            #expect(live.first?.current == true)
        }
    }

    @Test func endingTheOwnSessionNeedsTheSessionAndAnotherOneAStepUp() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let other = try h.decode(Session.self, try await h.login(phone, deviceId: enrolled.deviceId))
            let otherId = try h.sessionId(other)
            let bob = try await h.enroll(try await TestDevice(name: "Bob's phone"), username: "bob")

            try h.expectProblem(
                try await h.send(.delete, "/v1/sessions/\(otherId)", headers: h.bearer(enrolled.session)), 403,
                .stepUpRequired)
            #expect(try await h.send(.get, "/v1/account", headers: h.bearer(other)).status == .ok)
            let privileged = try await h.stepUp(enrolled.session)
            try h.expectProblem(
                try await h.send(.delete, "/v1/sessions/\(try h.sessionId(bob.session))", headers: h.bearer(privileged)),
                404, .notFound)
            #expect(try await h.send(.get, "/v1/account", headers: h.bearer(bob.session)).status == .ok)
            try h.expectProblem(
                try await h.send(.delete, "/v1/sessions/unknown-session", headers: h.bearer(privileged)), 404, .notFound)

            #expect(try await h.send(.delete, "/v1/sessions/\(otherId)", headers: h.bearer(privileged)).status == .noContent)
            try h.expectProblem(try await h.send(.get, "/v1/account", headers: h.bearer(other)), 401, .unauthorized)
            try h.expectProblem(
                try await h.send(.post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: other.refreshToken),
                    headers: [.authorization: "TouchstoneDevice \(try await phone.request(deviceId: enrolled.deviceId, path: "/v1/sessions/refresh", now: h.now))"]),
                401, .refreshTokenInvalid)
            try h.expectProblem(
                try await h.send(.delete, "/v1/sessions/\(otherId)", headers: h.bearer(privileged)), 404, .notFound)

            // The caller's own session, with the session alone.
            let ownId = try h.sessionId(enrolled.session)
            #expect(try await h.send(.delete, "/v1/sessions/\(ownId)", headers: h.bearer(enrolled.session)).status == .noContent)
            try h.expectProblem(try await h.send(.get, "/v1/account", headers: h.bearer(enrolled.session)), 401, .unauthorized)
        }
    }

    @Test func aRemovedDevicesWebLoginSessionsEnd() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let code = try await h.createRecoveryCodes(enrolled.session)[0]
            let tablet = try await TestDevice(name: "Ana's tablet")
            let joined = try await h.enrollWithCode(tablet, code: code)
            let approvedByTablet = try await webLogin(h, approvedBy: tablet, deviceId: joined.deviceId)
            let approvedByPhone = try await webLogin(h, approvedBy: phone, deviceId: enrolled.deviceId)
            #expect(try await h.sessions(approvedByPhone).contains { $0.sessionId == (try? h.sessionId(approvedByTablet)) })

            // The phone removes the tablet: the browser session it approved ends with it.
            let privileged = try await h.stepUp(enrolled.session)
            #expect(try await h.send(.delete, "/v1/devices/\(joined.deviceId)", headers: h.bearer(privileged)).status == .noContent)
            try h.expectProblem(try await h.send(.get, "/v1/account", headers: h.bearer(approvedByTablet)), 401, .unauthorized)
            let live = try await h.sessions(approvedByPhone).map(\.sessionId)
            #expect(!live.contains(try h.sessionId(approvedByTablet)))
            #expect(!live.contains(try h.sessionId(joined.session)))
            #expect(live.contains(try h.sessionId(approvedByPhone)))
        }
    }

    @Test func anAdministratorsResetTakesEverythingAndThePasswordEnrolsAFirstDevice() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let userId = enrolled.session.userId
            let code = try await h.createRecoveryCodes(enrolled.session)[0]
            let web = try await webLogin(h, approvedBy: phone, deviceId: enrolled.deviceId)
            let password = try await h.pageSession()
            _ = try await h.store.createPasskey(
                PasskeyRecord(
                    credentialId: "ana-passkey", userId: userId, name: "laptop", credential: "{}", signCount: 0,
                    backupEligible: false, backupState: false, aaguid: "00000000-0000-0000-0000-000000000000",
                    attestationFormat: "none", createdAt: h.now),
                firstCredentialOnly: false,
                notice: SecurityNotices.draft(.passkeyAdded, userId: userId, actingDevice: nil, ip: nil, at: h.now))
            let pending = try await h.startEnrollment()
            let bob = try await h.enroll(try await TestDevice(name: "Bob's phone"), username: "bob")

            try await h.store.resetUser(userId: userId, at: h.now)

            #expect(try await h.store.devices(userId: userId).allSatisfy { !$0.isActive })
            #expect(try await h.store.passkeys(userId: userId).isEmpty)
            #expect(try await h.store.unusedRecoveryCodeHashes(userId: userId).isEmpty)
            for session in [enrolled.session, web, password] {
                try h.expectProblem(try await h.send(.get, "/v1/account", headers: h.bearer(session)), 401, .unauthorized)
            }
            try h.expectProblem(try await h.completeEnrollment(try await TestDevice(), pending), 401, .challengeInvalid)
            try h.expectProblem(try await h.startEnrollment(recoveryCode: code), 401, .invalidCredentials)
            // Bob is untouched.
            #expect(try await h.send(.get, "/v1/account", headers: h.bearer(bob.session)).status == .ok)
            // With nothing left, the password enrols a first device.
            let replacement = try await TestDevice(name: "Ana's new phone")
            #expect(try await h.completeEnrollment(replacement, try await h.startEnrollment()).status == .created)
        }
    }
}
