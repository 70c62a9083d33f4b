import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// What a revocation ends stays ended: removing a device or changing the password also ends the logins, decisions
/// and approvals that were under way meanwhile.
@Suite struct RevocationRaceTests {
    static let wrongPIN = "975310"
    static let newPassword = "a brand new passphrase"

    /// What one racing request got.
    struct Answer: Sendable {
        let status: Int
        let session: Session?
        let code: ProblemCode?
    }

    /// The answer to a request that gives a session (201 or 200) or a problem.
    func answer(_ h: Harness, _ response: TestResponse) throws -> Answer {
        let status = Int(response.status.code)
        if status == 200 || status == 201 {
            return Answer(status: status, session: try h.decode(Session.self, response), code: nil)
        }
        return Answer(status: status, session: nil, code: try h.problem(response).code)
    }

    /// `POST /v1/sessions/refresh`, with the device's signed request when the session has a device.
    func refresh(_ h: Harness, _ session: Session, device: TestDevice? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let device, let deviceId = session.deviceId {
            let proof = try await device.request(deviceId: deviceId, path: "/v1/sessions/refresh", now: h.now)
            headers[.authorization] = "TouchstoneDevice \(proof)"
        }
        return try await h.send(
            .post, "/v1/sessions/refresh", json: RefreshRequest(refreshToken: session.refreshToken), headers: headers)
    }

    /// Expects `session` to be over: neither its access token nor its refresh token is accepted.
    func expectEnded(
        _ h: Harness, _ session: Session, device: TestDevice? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(
            try await h.send(.get, "/v1/devices", headers: h.bearer(session)).status == .unauthorized,
            "an access token outlived the revocation", sourceLocation: sourceLocation)
        #expect(
            try await h.send(.get, "/v1/account", headers: h.bearer(session)).status == .unauthorized,
            "an access token outlived the revocation", sourceLocation: sourceLocation)
        #expect(
            try await refresh(h, session, device: device).status == .unauthorized,
            "a refresh token outlived the revocation", sourceLocation: sourceLocation)
    }

    /// When the revocation is sent: together with the racing requests, or once the first of them has been answered
    /// (so that it lands among their commits).
    enum Timing: CaseIterable {
        case together, afterFirstAnswer
    }

    // MARK: A. Device removal racing PIN logins and decisions

    /// The logins race the removal: challenges and assertions are made beforehand, so only `POST /v1/sessions` (whose
    /// PIN check is a bcrypt) overlaps the `DELETE`.
    func racePINLogins(_ h: Harness, username: String, timing: Timing) async throws {
        let device = try await TestDevice()
        let enrolled = try await h.enroll(device, username: username)
        let deviceId = enrolled.deviceId
        var assertions: [(pin: String, assertion: String)] = []
        for index in 0..<9 {
            // One of them with a wrong PIN.
            let pin = index == 4 ? Self.wrongPIN : Harness.pin
            let challenge = try await h.challenge(deviceId)
            assertions.append((pin, try await device.assertion(deviceId: deviceId, challenge: challenge, pin: pin, now: h.now)))
        }

        let (answered, signal) = AsyncStream<Void>.makeStream()
        let answers = try await withThrowingTaskGroup(of: (pin: String, answer: Answer)?.self) { group in
            for (pin, assertion) in assertions {
                group.addTask {
                    let response = try await h.send(
                        .post, "/v1/sessions", json: AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion))
                    signal.yield()
                    return (pin, try answer(h, response))
                }
            }
            group.addTask {
                if timing == .afterFirstAnswer {
                    for await _ in answered { break }
                }
                let deleted = try await h.send(.delete, "/v1/devices/\(deviceId)", headers: h.bearer(enrolled.session))
                #expect(deleted.status == .noContent)
                return nil
            }
            return try await group.reduce(into: [(pin: String, answer: Answer)]()) { all, next in
                if let next { all.append(next) }
            }
        }
        signal.finish()
        #expect(answers.count == assertions.count)

        for (pin, answer) in answers {
            if pin == Self.wrongPIN {
                #expect(answer.session == nil)
                #expect(
                    (answer.status == 401 && answer.code == .pinIncorrect)
                        || (answer.status == 403 && answer.code == .deviceRevoked),
                    "wrong PIN: \(answer.status) \(answer.code?.rawValue ?? "-")")
            } else if answer.session == nil {
                #expect(answer.status == 403 && answer.code == .deviceRevoked, "\(answer.status) \(answer.code?.rawValue ?? "-")")
            } else {
                #expect(answer.status == 201)
            }
        }
        // Every session any of them got ended with the device, however the race went.
        for session in answers.compactMap(\.answer.session) + [enrolled.session] {
            try await expectEnded(h, session, device: device)
        }
        try h.expectProblem(
            try await h.send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: deviceId)), 403, .deviceRevoked)
    }

    @Test func pinLoginsRacingTheDevicesRemovalGetNoWorkingSessionAfterThe204() async throws {
        // bcrypt at its real cost: the PIN check is the window the removal races.
        try await Harness.run(configure: Harness.productionBcrypt) { h in
            try await racePINLogins(h, username: "ana", timing: .together)
            try await racePINLogins(h, username: "bea", timing: .afterFirstAnswer)
        }
    }

    /// Decisions on confirmations (biometric and with the PIN) race the removal of the deciding device: each is
    /// recorded before the 204 of the `DELETE`, or refused.
    func raceDecisions(_ h: Harness, username: String, key: String, timing: Timing) async throws {
        let device = try await TestDevice()
        let enrolled = try await h.enroll(device, username: username)
        let deviceId = enrolled.deviceId
        let request = ConfirmationRequest(
            username: username, text: "Pay €120.00 to ACME Ltd", amount: "120.00", currency: "EUR", payee: "ACME Ltd")
        let txn = TransactionHash.of(text: request.text, amount: request.amount, currency: request.currency, payee: request.payee)
        var ids: [String] = []
        for _ in 0..<6 {
            let created = try await h.send(.post, "/v1/confirmations", json: request, headers: [.authorization: "ApiKey \(key)"])
            #expect(created.status == .created)
            ids.append(try h.decode(ConfirmationCreated.self, created).confirmationId)
        }
        let items = try await h.inboxItems(device, deviceId: deviceId)
        var decisions: [(id: String, token: String)] = []
        for (index, id) in ids.enumerated() {
            let item = try #require(items.first { $0.id == id })
            decisions.append(
                (id, try await device.decision(
                    deviceId: deviceId, challenge: item.challenge, txn: txn, pin: index.isMultiple(of: 2) ? Harness.pin : nil,
                    now: h.now)))
        }
        let store = try #require(h.store as? SQLStore)

        enum Event: Sendable {
            case decided(id: String, Answer)
            /// The stored status of every confirmation, read as soon as the `DELETE` answered 204.
            case deleted([String: String])
        }
        let (answered, signal) = AsyncStream<Void>.makeStream()
        let events = try await withThrowingTaskGroup(of: Event.self) { group in
            for (id, token) in decisions {
                group.addTask {
                    let response = try await h.decide("confirmations", id, token)
                    signal.yield()
                    let status = Int(response.status.code)
                    if status == 200 {
                        #expect(try h.decode(DecisionRecorded.self, response).status == .approved)
                        return .decided(id: id, Answer(status: status, session: nil, code: nil))
                    }
                    return .decided(id: id, Answer(status: status, session: nil, code: try h.problem(response).code))
                }
            }
            group.addTask {
                if timing == .afterFirstAnswer {
                    for await _ in answered { break }
                }
                let deleted = try await h.send(.delete, "/v1/devices/\(deviceId)", headers: h.bearer(enrolled.session))
                let rows = try await store.provider.read { database in
                    try await database.raw("SELECT id, status FROM confirmations").all().map {
                        (try $0.decode(column: "id", as: String.self), try $0.decode(column: "status", as: String.self))
                    }
                }
                #expect(deleted.status == .noContent)
                return .deleted(Dictionary(rows, uniquingKeysWith: { first, _ in first }))
            }
            return try await group.reduce(into: [Event]()) { $0.append($1) }
        }
        signal.finish()

        var atDeletion: [String: String]?
        var decided: [(id: String, answer: Answer)] = []
        for event in events {
            switch event {
            case .deleted(let statuses): atDeletion = statuses
            case .decided(let id, let answer): decided.append((id, answer))
            }
        }
        let statusesAtDeletion = try #require(atDeletion)
        #expect(decided.count == decisions.count)
        for (id, answer) in decided {
            let state = try h.decode(
                ConfirmationState.self,
                try await h.send(.get, "/v1/confirmations/\(id)", headers: [.authorization: "ApiKey \(key)"]))
            if answer.status == 200 {
                #expect(statusesAtDeletion[id] == "approved", "a decision was recorded after the device's removal answered 204")
                #expect(state.status == .approved)
                #expect(state.deviceId == deviceId)
            } else {
                #expect(answer.status == 403 && answer.code == .deviceRevoked, "\(answer.status) \(answer.code?.rawValue ?? "-")")
                #expect(statusesAtDeletion[id] == "pending")
                #expect(state.status == .pending)
                #expect(state.decision == nil)
            }
        }
    }

    @Test func aDecisionRacingTheDevicesRemovalIsRecordedBeforeThe204OrRefused() async throws {
        try await Harness.run { h in
            try await h.saveApp(AppPolicy(clientId: "com.example.pay", publisher: "demo"))
            let key = try await h.newAPIKey(for: "com.example.pay")
            try await raceDecisions(h, username: "ana", key: key, timing: .together)
            try await raceDecisions(h, username: "bea", key: key, timing: .afterFirstAnswer)
        }
    }

    // MARK: B. Password change racing password logins; enrolments started with the old password

    @Test func loginsWithTheOldPasswordSentRightAfterAPasswordChangeGetNoSessionThatStillRefreshes() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let privileged = try await h.stepUp(enrolled.session)
            let old = PasswordLoginRequest(clientId: "com.example.demo", username: "ana", password: Harness.password)

            let answers = try await withThrowingTaskGroup(of: Answer?.self) { group in
                group.addTask {
                    let changed = try await h.send(
                        .put, "/v1/account/password", json: PasswordRequest(password: Self.newPassword),
                        headers: h.bearer(privileged))
                    #expect(changed.status == .noContent)
                    return nil
                }
                for _ in 0..<8 {
                    group.addTask { try answer(h, try await h.send(.post, "/v1/sessions/password", json: old)) }
                }
                return try await group.reduce(into: [Answer]()) { all, next in
                    if let next { all.append(next) }
                }
            }
            #expect(answers.count == 8)
            for answer in answers where answer.session == nil {
                #expect(
                    (answer.status == 401 && answer.code == .invalidCredentials)
                        || (answer.status == 429 && answer.code == .tooManyAttempts),
                    "\(answer.status) \(answer.code?.rawValue ?? "-")")
            }
            for session in answers.compactMap(\.session) {
                #expect(session.amr == ["pwd"])
                try h.expectProblem(try await refresh(h, session), 401, .refreshTokenInvalid)
                try h.expectProblem(try await h.send(.get, "/v1/account", headers: h.bearer(session)), 401, .unauthorized)
            }
            // The session that changed the password goes on.
            #expect(try await h.send(.get, "/v1/account", headers: h.bearer(privileged)).status == .ok)
        }
    }

    @Test func enrolmentsStartedWithTheOldPasswordCannotCompleteAndPendingApprovalsEnd() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            // A tablet waits for the phone's approval; a laptop has started its enrolment, both with the old password.
            let tablet = try await TestDevice(name: "Ana's tablet")
            let waiting = try await h.completeEnrollment(tablet, try await h.startEnrollment())
            #expect(waiting.status == .accepted)
            let pending = try h.decode(EnrollmentPending.self, waiting)
            let laptop = try await TestDevice(name: "Ana's laptop")
            let started = try await h.startEnrollment()
            let item = try #require(try await h.inboxItems(phone, deviceId: enrolled.deviceId).first { $0.id == pending.enrollmentId })

            let privileged = try await h.stepUp(enrolled.session)
            let changed = try await h.send(
                .put, "/v1/account/password", json: PasswordRequest(password: Self.newPassword), headers: h.bearer(privileged))
            #expect(changed.status == .noContent)

            try h.expectProblem(try await h.completeEnrollment(laptop, started), 401, .challengeInvalid)
            #expect(try await h.inboxItems(phone, deviceId: enrolled.deviceId).isEmpty)
            let poll = try await h.send(
                .get, "/v1/enrollments/\(pending.enrollmentId)", headers: [.pollSecret: pending.pollSecret])
            #expect(poll.status == .ok)
            let polled = try h.decode(EnrollmentPoll.self, poll)
            #expect(polled.status == .denied)
            #expect(polled.deviceId == nil)
            #expect(polled.session == nil)
            // Approving it now changes nothing.
            let approval = try await phone.decision(
                deviceId: enrolled.deviceId, challenge: item.challenge, number: pending.number, now: h.now)
            #expect(try await h.decide("enrollments", pending.enrollmentId, approval).status != .ok)
            let again = try h.decode(
                EnrollmentPoll.self,
                try await h.send(.get, "/v1/enrollments/\(pending.enrollmentId)", headers: [.pollSecret: pending.pollSecret]))
            #expect(again.status == .denied)
            #expect(again.session == nil)
            #expect(try await h.store.devices(userId: enrolled.session.userId).filter(\.isActive).map(\.id) == [enrolled.deviceId])
        }
    }

    // MARK: C. Web logins approved by a device that is then removed

    func beginWebLogin(_ h: Harness) async throws -> WebLoginStarted {
        let response = try await h.send(.post, "/v1/web-logins", json: WebLoginRequest(username: "ana", clientId: nil))
        #expect(response.status == .created)
        return try h.decode(WebLoginStarted.self, response)
    }

    func pollWebLogin(_ h: Harness, _ started: WebLoginStarted) async throws -> WebLoginPoll {
        let response = try await h.send(.get, "/v1/web-logins/\(started.webLoginId)", headers: [.pollSecret: started.pollSecret])
        #expect(response.status == .ok)
        return try h.decode(WebLoginPoll.self, response)
    }

    /// Ana's enrolled phone approves a new web login with the right number.
    func approvedWebLogin(_ h: Harness) async throws -> (device: TestDevice, enrolled: EnrollmentCompleted, started: WebLoginStarted) {
        let device = try await TestDevice()
        let enrolled = try await h.enroll(device)
        let started = try await beginWebLogin(h)
        let item = try #require(try await h.inboxItems(device, deviceId: enrolled.deviceId).first { $0.id == started.webLoginId })
        let decision = try await device.decision(
            deviceId: enrolled.deviceId, challenge: item.challenge, number: started.number, now: h.now)
        let decided = try await h.decide("web-logins", started.webLoginId, decision)
        #expect(decided.status == .ok)
        #expect(try h.decode(DecisionRecorded.self, decided).status == .approved)
        return (device, enrolled, started)
    }

    @Test func aWebLoginApprovedByADeviceThatIsThenRemovedIsNotDelivered() async throws {
        try await Harness.run { h in
            let (_, enrolled, started) = try await approvedWebLogin(h)
            let deleted = try await h.send(.delete, "/v1/devices/\(enrolled.deviceId)", headers: h.bearer(enrolled.session))
            #expect(deleted.status == .noContent)
            let polled = try await pollWebLogin(h, started)
            #expect(polled.status == .denied)
            #expect(polled.session == nil)
            let again = try await pollWebLogin(h, started)
            #expect(again.status == .denied)
            #expect(again.session == nil)
        }
    }

    @Test func webLoginSessionsDeliveredEarlierEndWhenTheApprovingDeviceIsRemoved() async throws {
        try await Harness.run { h in
            let (_, enrolled, started) = try await approvedWebLogin(h)
            let delivered = try await pollWebLogin(h, started)
            #expect(delivered.status == .approved)
            let first = try #require(delivered.session)
            // Usable until then: it refreshes, reads the account and steps up.
            let refreshed = try await refresh(h, first)
            #expect(refreshed.status == .ok)
            let web = try h.decode(Session.self, refreshed)
            #expect(try await h.send(.get, "/v1/account", headers: h.bearer(web)).status == .ok)
            let privileged = try await h.stepUp(web)

            let deleted = try await h.send(.delete, "/v1/devices/\(enrolled.deviceId)", headers: h.bearer(enrolled.session))
            #expect(deleted.status == .noContent)

            #expect(try await refresh(h, web).status == .unauthorized)
            #expect(try await h.send(.get, "/v1/account", headers: h.bearer(web)).status == .unauthorized)
            #expect(try await h.send(.get, "/v1/account", headers: h.bearer(privileged)).status == .unauthorized)
            #expect(
                try await h.send(.post, "/v1/step-up", json: PasswordRequest(password: Harness.password), headers: h.bearer(web))
                    .status == .unauthorized)
            #expect(
                try await h.send(
                    .put, "/v1/account/password", json: PasswordRequest(password: Self.newPassword), headers: h.bearer(privileged)
                ).status == .unauthorized)
        }
    }
}
