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

/// A browser signs in by approval on an enrolled device, with number matching.
@Suite struct WebLoginTests {
    static let browser = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"

    struct Scene {
        let device: TestDevice
        let deviceId: String
        let userId: String
    }

    func makeScene(_ h: Harness) async throws -> Scene {
        let device = try await TestDevice()
        let enrolled = try await h.enroll(device)
        return Scene(device: device, deviceId: enrolled.deviceId, userId: enrolled.session.userId)
    }

    func start(_ h: Harness, username: String = "ana", clientId: String? = nil) async throws -> TestResponse {
        try await h.send(
            .post, "/v1/web-logins", json: WebLoginRequest(username: username, clientId: clientId),
            headers: [.userAgent: Self.browser])
    }

    func begin(_ h: Harness, username: String = "ana", clientId: String? = nil) async throws -> WebLoginStarted {
        let response = try await start(h, username: username, clientId: clientId)
        #expect(response.status == .created)
        return try h.decode(WebLoginStarted.self, response)
    }

    func poll(_ h: Harness, _ started: WebLoginStarted) async throws -> WebLoginPoll {
        let response = try await h.send(.get, "/v1/web-logins/\(started.webLoginId)", headers: [.pollSecret: started.pollSecret])
        #expect(response.status == .ok)
        #expect(response.headers[.cacheControl] == "no-store")
        return try h.decode(WebLoginPoll.self, response)
    }

    /// The ids of the web logins waiting in the device's inbox.
    func delivered(_ h: Harness, _ scene: Scene) async throws -> [String] {
        try await h.inboxItems(scene.device, deviceId: scene.deviceId).filter { $0.kind == .webLogin }.map(\.id)
    }

    func shown(_ h: Harness, _ scene: Scene, _ started: WebLoginStarted) async throws -> InboxItem {
        try #require(try await h.inboxItems(scene.device, deviceId: scene.deviceId).first { $0.id == started.webLoginId })
    }

    @Test func theDeviceSeesTheBrowserAndThreeNumbers() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let response = try await start(h)
            #expect(response.status == .created)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(Set(try h.jsonObject(response).keys) == ["webLoginId", "number", "pollSecret", "expiresAt"])
            let started = try h.decode(WebLoginStarted.self, response)
            #expect((10...99).contains(started.number))
            #expect(abs(started.expiresAt.timeIntervalSince(h.now) - 120) < 1)
            #expect(Base64URL.decode(started.pollSecret)?.count == 32)

            let inbox = try await h.deviceInbox(scene.device, deviceId: scene.deviceId)
            let raw = try #require(try h.jsonObject(inbox)["items"] as? [[String: Any]])
            #expect(raw.count == 1)
            #expect(
                Set(raw.first?.keys.map { $0 } ?? [])
                    == ["kind", "id", "clientId", "publisher", "challenge", "expiresAt", "browser", "ip", "requestedAt", "numbers"])
            let item = try #require(try h.decode(Inbox.self, inbox).items.first)
            #expect(item.kind == .webLogin)
            #expect(item.id == started.webLoginId)
            #expect(item.browser == Self.browser)
            #expect(item.ip?.isEmpty == false)
            #expect(abs(try #require(item.requestedAt).timeIntervalSince(h.now)) < 1)
            #expect(item.clientId == "com.example.demo")
            #expect(item.publisher == "demo")
            #expect(abs(item.expiresAt.timeIntervalSince(started.expiresAt)) < 1)
            let numbers = try #require(item.numbers)
            #expect(numbers.count == 3)
            #expect(Set(numbers).count == 3)
            #expect(numbers.allSatisfy { (10...99).contains($0) })
            #expect(numbers.contains(started.number))
            #expect(try await poll(h, started).status == .pending)
            #expect(try await poll(h, started).session == nil)
        }
    }

    @Test func theRightNumberSignsTheBrowserInOnce() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let started = try await begin(h)
            let item = try await shown(h, scene, started)
            let decision = try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, number: started.number, now: h.now)
            let decided = try await h.decide("web-logins", started.webLoginId, decision)
            #expect(decided.status == .ok)
            #expect(String(buffer: decided.body) == #"{"status":"approved"}"#)
            #expect(try await h.inboxItems(scene.device, deviceId: scene.deviceId).isEmpty)

            let first = try await poll(h, started)
            #expect(first.status == .approved)
            let session = try #require(first.session)
            #expect(session.amr == ["bio"])
            #expect(session.acr == "aal2")
            #expect(session.userId == scene.userId)
            #expect(session.deviceId == nil)
            #expect(try jwtParts(session.accessToken).payload["aud"] as? String == "com.example.demo")
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(session)).status == .ok)
            let second = try await poll(h, started)
            #expect(second.status == .approved)
            #expect(second.session == nil)

            // A second decision (a new token: another iat) is refused.
            let again = try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, number: started.number, now: h.now - 1)
            try h.expectProblem(try await h.decide("web-logins", started.webLoginId, again), 409, .alreadyDecided)
            try h.expectProblem(try await h.decide("web-logins", started.webLoginId, decision), 401, .challengeInvalid)
        }
    }

    @Test func approvalWithThePINGivesAPINSession() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.pay", publisher: "demo"))
            let scene = try await makeScene(h)
            let started = try await begin(h, clientId: "com.example.pay")
            let item = try await shown(h, scene, started)
            #expect(item.clientId == "com.example.pay")
            let wrong = try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, number: started.number, pin: "975310", now: h.now)
            #expect(try h.expectProblem(try await h.decide("web-logins", started.webLoginId, wrong), 401, .pinIncorrect).attemptsRemaining == 4)
            #expect(try await h.store.device(id: scene.deviceId)?.pinFailures == 1)
            #expect(try await poll(h, started).status == .pending)
            let right = try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, number: started.number, pin: Harness.pin, now: h.now)
            #expect(try await h.decide("web-logins", started.webLoginId, right).status == .ok)
            let session = try #require(try await poll(h, started).session)
            #expect(session.amr == ["pin"])
            #expect(session.acr == "aal2")
            #expect(try jwtParts(session.accessToken).payload["aud"] as? String == "com.example.pay")
        }
    }

    @Test func aWrongNumberDeniesTheLogin() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let started = try await begin(h)
            let item = try await shown(h, scene, started)
            let wrongNumber = try #require(item.numbers?.first { $0 != started.number })
            let decision = try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, number: wrongNumber, now: h.now)
            let decided = try await h.decide("web-logins", started.webLoginId, decision)
            #expect(decided.status == .ok)
            #expect(try h.decode(DecisionRecorded.self, decided).status == .denied)
            let polled = try await poll(h, started)
            #expect(polled.status == .denied)
            #expect(polled.session == nil)
            // It stays denied: the right number afterwards is too late.
            let right = try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, number: started.number, now: h.now)
            try h.expectProblem(try await h.decide("web-logins", started.webLoginId, right), 409, .alreadyDecided)
            #expect(try await poll(h, started).status == .denied)
        }
    }

    @Test func anApprovalWithoutANumberDeniesTheLogin() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let started = try await begin(h)
            let item = try await shown(h, scene, started)
            let decision = try await scene.device.decision(deviceId: scene.deviceId, challenge: item.challenge, now: h.now)
            #expect(try h.decode(DecisionRecorded.self, try await h.decide("web-logins", started.webLoginId, decision)).status == .denied)
            #expect(try await poll(h, started).status == .denied)
        }
    }

    @Test func unknownUsersGetTheSameAnswerAndNothingIsDelivered() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let response = try await start(h, username: "nobody")
            #expect(response.status == .created)
            #expect(Set(try h.jsonObject(response).keys) == ["webLoginId", "number", "pollSecret", "expiresAt"])
            let started = try h.decode(WebLoginStarted.self, response)
            #expect((10...99).contains(started.number))
            #expect(abs(started.expiresAt.timeIntervalSince(h.now) - 120) < 1)
            #expect(try await delivered(h, scene).isEmpty)
            #expect(try await poll(h, started).status == .pending)
            h.clock.advance(by: 121)
            #expect(try await poll(h, started).status == .expired)
        }
    }

    @Test func onlyOnePendingWebLoginIsDelivered() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let first = try await begin(h)
            let secondResponse = try await start(h)
            #expect(secondResponse.status == .created)
            #expect(Set(try h.jsonObject(secondResponse).keys) == ["webLoginId", "number", "pollSecret", "expiresAt"])
            let second = try h.decode(WebLoginStarted.self, secondResponse)
            #expect(try await delivered(h, scene) == [first.webLoginId])
            #expect(try await poll(h, second).status == .pending)
            // Even knowing its challenge, the device cannot decide the undelivered one.
            let challenge = try #require(try await h.store.webLogin(id: second.webLoginId)?.challenge)
            let decision = try await scene.device.decision(
                deviceId: scene.deviceId, challenge: challenge, number: second.number, now: h.now)
            try h.expectProblem(try await h.decide("web-logins", second.webLoginId, decision), 401, .challengeInvalid)
            #expect(try await poll(h, second).session == nil)
            // Once the first is no longer pending, a new one is delivered again.
            h.clock.advance(by: 121)
            let third = try await begin(h)
            #expect(try await delivered(h, scene) == [third.webLoginId])
        }
    }

    @Test func concurrentRequestsDeliverOnlyOne() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask { Int(try await start(h).status.code) }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 201, count: 6))
            #expect(try await delivered(h, scene).count == 1)
        }
    }

    @Test func atMostFivePerHourAreDelivered() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            for _ in 0..<5 {
                let started = try await begin(h)
                #expect(try await delivered(h, scene) == [started.webLoginId])
                h.clock.advance(by: 121)
            }
            let sixth = try await begin(h)
            #expect(try await delivered(h, scene).isEmpty)
            #expect(try await poll(h, sixth).status == .pending)
            // An hour later the user can ask again.
            h.clock.advance(by: 3_601)
            let later = try await begin(h)
            #expect(try await delivered(h, scene) == [later.webLoginId])
        }
    }

    @Test func aDenialStartsAFifteenMinuteCoolDown() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let started = try await begin(h)
            let item = try await shown(h, scene, started)
            let deny = try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, approve: false, number: started.number, now: h.now)
            #expect(try h.decode(DecisionRecorded.self, try await h.decide("web-logins", started.webLoginId, deny)).status == .denied)
            #expect(try await poll(h, started).status == .denied)

            let during = try await start(h)
            #expect(during.status == .created)
            #expect(try await delivered(h, scene).isEmpty)
            h.clock.advance(by: 840)
            _ = try await begin(h)
            #expect(try await delivered(h, scene).isEmpty)
            h.clock.advance(by: 61)
            let after = try await begin(h)
            #expect(try await delivered(h, scene) == [after.webLoginId])
        }
    }

    @Test func pollingNeedsTheSecret() async throws {
        try await Harness.run { h in
            _ = try await makeScene(h)
            let started = try await begin(h)
            let path = "/v1/web-logins/\(started.webLoginId)"
            try h.expectProblem(try await h.send(.get, path, headers: [.pollSecret: "wrong"]), 404, .notFound)
            try h.expectProblem(try await h.send(.get, path), 404, .notFound)
            try h.expectProblem(try await h.send(.get, "/v1/web-logins/unknown", headers: [.pollSecret: started.pollSecret]), 404, .notFound)
            let other = try await begin(h, username: "nobody")
            try h.expectProblem(try await h.send(.get, path, headers: [.pollSecret: other.pollSecret]), 404, .notFound)
        }
    }

    @Test func aWebLoginExpiresAfterTwoMinutes() async throws {
        try await Harness.run { h in
            let scene = try await makeScene(h)
            let started = try await begin(h)
            let item = try await shown(h, scene, started)
            h.clock.advance(by: 119)
            #expect(try await poll(h, started).status == .pending)
            h.clock.advance(by: 2)
            #expect(try await poll(h, started).status == .expired)
            #expect(try await delivered(h, scene).isEmpty)
            let late = try await scene.device.decision(
                deviceId: scene.deviceId, challenge: item.challenge, number: started.number, now: h.now)
            try h.expectProblem(try await h.decide("web-logins", started.webLoginId, late), 410, .expired)
            #expect(try await poll(h, started).status == .expired)
        }
    }

    @Test func onlyTheUsersDevicesOfThatPublisherDecide() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.other.app", publisher: "other"))
            let scene = try await makeScene(h)
            let bobDevice = try await TestDevice(name: "Bob's phone")
            let bob = try await h.enroll(bobDevice, username: "bob")
            let started = try await begin(h)
            let item = try await shown(h, scene, started)
            #expect(try await h.inboxItems(bobDevice, deviceId: bob.deviceId).isEmpty)
            let bobs = try await bobDevice.decision(deviceId: bob.deviceId, challenge: item.challenge, number: started.number, now: h.now)
            try h.expectProblem(try await h.decide("web-logins", started.webLoginId, bobs), 401, .challengeInvalid)
            #expect(try await poll(h, started).status == .pending)

            // A web login for another publisher's app never reaches Ana's device enrolled under "demo".
            h.clock.advance(by: 121)
            let foreign = try await begin(h, clientId: "com.other.app")
            #expect(try await delivered(h, scene).isEmpty)
            let challenge = try #require(try await h.store.webLogin(id: foreign.webLoginId)?.challenge)
            let decision = try await scene.device.decision(deviceId: scene.deviceId, challenge: challenge, number: foreign.number, now: h.now)
            try h.expectProblem(try await h.decide("web-logins", foreign.webLoginId, decision), 401, .challengeInvalid)
            try h.expectProblem(try await start(h, clientId: "com.nowhere"), 404, .appNotFound)
        }
    }
}
