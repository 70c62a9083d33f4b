import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

/// Two `touchstone serve` processes on one PostgreSQL database with one ISSUER, as several instances behind a load
/// balancer run (DESIGN §4): any instance serves any step, and what must be atomic stays atomic across instances.
/// The test talks to each instance on its own port.
@Suite(.enabled(if: TestDatabase.postgresServer != nil, "needs TOUCHSTONE_TEST_POSTGRES (scripts/test sets it)"))
struct TwoInstanceTests {
    /// The one ISSUER both instances share: the `aud` of every device-signed token.
    static let issuer = "http://localhost:8080"

    @Test func bothInstancesPublishOneKeySetAndAcceptEachOthersTokensAndChallenges() async throws {
        try await withTwoInstances { pair in
            let ana = try await EnrolledDevice.enrol(on: pair.a, client: pair.clientA)

            // One JWKS, whichever instance answers.
            let jwksA = try await pair.clientA.get("/.well-known/jwks.json")
            let jwksB = try await pair.clientB.get("/.well-known/jwks.json")
            try #require(jwksA.status == 200 && jwksB.status == 200, "\(jwksA)\n\(jwksB)")
            let keysA = try jwksA.decode(JWKSet.self).keys.sorted { $0.kid < $1.kid }
            let keysB = try jwksB.decode(JWKSet.self).keys.sorted { $0.kid < $1.kid }
            #expect(!keysA.isEmpty)
            #expect(keysA == keysB, "A publishes \(keysA.map(\.kid)), B \(keysB.map(\.kid))")

            // An access token issued by A (the enrolment's session) is accepted by B, and is signed with a key of
            // the one JWKS.
            let fromA = ana.firstSession.accessToken
            let listedAtB = try await ana.devices(accessToken: fromA, at: pair.clientB)
            try #require(listedAtB.status == 200, "GET /v1/devices at B with A's token: \(listedAtB)")
            let devices = try #require(try listedAtB.object()["devices"] as? [[String: Any]], "\(listedAtB)")
            #expect(devices.compactMap { $0["deviceId"] as? String } == [ana.deviceId], "\(listedAtB)")
            let tokenA = try AccessToken(fromA)
            #expect(tokenA.claims.iss == Self.issuer)
            let keyA = try #require(keysB.first { $0.kid == tokenA.header.kid }, "kid \(tokenA.header.kid) in B's JWKS")
            #expect(try AccessToken.signatureVerifies(fromA, with: keyA))

            // A challenge issued by A is answered at B.
            let challenge = try await ana.challenge()
            let assertion = try await ana.device.assertion(deviceId: ana.deviceId, challenge: challenge)
            let answeredAtB = try await login(assertion, of: ana, at: pair.clientB)
            try #require(answeredAtB.status == 201, "POST /v1/sessions at B over A's challenge: \(answeredAtB)")
            let sessionB = try answeredAtB.decode(Session.self)
            #expect(sessionB.deviceId == ana.deviceId && sessionB.userId == ana.userId && sessionB.amr == ["bio"])

            // …and the other way round: B's challenge at A, and B's token accepted by A.
            let challengeB = try await issueChallenge(for: ana, at: pair.clientB)
            let pinAssertion = try await ana.device.assertion(
                deviceId: ana.deviceId, challenge: challengeB, pin: EnrolledDevice.pin)
            let answeredAtA = try await login(pinAssertion, of: ana, at: pair.clientA)
            #expect(answeredAtA.status == 201, "POST /v1/sessions at A over B's challenge: \(answeredAtA)")
            let tokenB = try AccessToken(sessionB.accessToken)
            #expect(keysA.contains { $0.kid == tokenB.header.kid }, "kid \(tokenB.header.kid) in A's JWKS")
            let listedAtA = try await ana.devices(accessToken: sessionB.accessToken)
            #expect(listedAtA.status == 200, "GET /v1/devices at A with B's token: \(listedAtA)")

            // The challenge is spent on both: answering it again at A is refused.
            let again = try await ana.device.assertion(deviceId: ana.deviceId, challenge: challenge)
            expectProblem(try await ana.login(assertion: again), status: 401, code: "challenge_invalid")
        }
    }

    @Test func concurrentAnswersToOneChallengeWinOnceAcrossInstances() async throws {
        try await withTwoInstances { pair in
            let ana = try await EnrolledDevice.enrol(on: pair.a, client: pair.clientA)
            let challenge = try await ana.challenge()
            var signed: [String] = []
            for _ in 0..<24 {
                signed.append(try await ana.device.assertion(deviceId: ana.deviceId, challenge: challenge))
            }
            let assertions = signed
            try #require(Set(assertions).count == 24, "24 distinct assertions over one challenge")

            let clients = assertions.indices.map(pair.fresh)
            let answers = try await concurrently(assertions.indices) { index in
                try await login(assertions[index], of: ana, at: clients[index])
            }
            let won = answers.filter { $0.status == 201 }
            let lost = answers.filter { $0.status != 201 }
            #expect(won.count == 1, "exactly one 201: \(answers.map(\.status))")
            #expect(lost.count == 23, "\(answers.map(\.status))")
            for answer in lost {
                expectProblem(answer, status: 401, code: "challenge_invalid")
            }
            // The winning session is good at both instances.
            if let session = try won.first?.decode(Session.self) {
                for client in [pair.clientA, pair.clientB] {
                    let listed = try await ana.devices(accessToken: session.accessToken, at: client)
                    #expect(listed.status == 200, "\(client.baseURL): \(listed)")
                }
            }
        }
    }

    @Test func concurrentWrongPINsAcrossInstancesNeverCountPastTheLimit() async throws {
        try await withTwoInstances { pair in
            let ana = try await EnrolledDevice.enrol(on: pair.a, client: pair.clientA)
            // Each wrong PIN over its own challenge, all obtained beforehand, half from each instance.
            var signed: [String] = []
            for index in 0..<20 {
                let challenge = try await issueChallenge(for: ana, at: pair.client(index))
                signed.append(
                    try await ana.device.assertion(deviceId: ana.deviceId, challenge: challenge, pin: DeviceCLI.wrongPIN))
            }
            let assertions = signed

            let clients = assertions.indices.map(pair.fresh)
            let answers = try await concurrently(assertions.indices) { index in
                try await login(assertions[index], of: ana, at: clients[index])
            }
            let incorrect = answers.filter { $0.status == 401 }
            let locked = answers.filter { $0.status == 423 }
            #expect(incorrect.count == 4, "the default limit is 5: \(answers.map(\.status))")
            #expect(locked.count == 16, "the 5th wrong PIN locks: \(answers.map(\.status))")
            for answer in incorrect {
                expectProblem(answer, status: 401, code: "pin_incorrect")
            }
            for answer in locked {
                expectProblem(answer, status: 423, code: "pin_locked")
            }
            // Each wrong PIN was counted once: the four answers saw 4, 3, 2 and 1 attempts left.
            let remaining = incorrect.compactMap { try? $0.object()["attemptsRemaining"] as? Int }.sorted()
            #expect(remaining == [1, 2, 3, 4], "attemptsRemaining of the 401s: \(remaining)")

            // The server's record: locked.
            let listed = try await pair.admin(["devices", "--json"])
            try #require(listed.status == 0, "admin devices: \(listed)")
            let devices = try #require(try listed.json([String: [DeviceCLI.ServerDevice]].self)["devices"], "\(listed)")
            let device = try #require(devices.first { $0.deviceId == ana.deviceId }, "\(listed)")
            #expect(device.pinLocked, "admin devices shows the PIN locked: \(listed)")
            #expect(device.revokedAt == nil)

            // From then on even the right PIN is refused, at either instance.
            for client in [pair.clientA, pair.clientB] {
                let challenge = try await issueChallenge(for: ana, at: client)
                let right = try await ana.device.assertion(
                    deviceId: ana.deviceId, challenge: challenge, pin: EnrolledDevice.pin)
                expectProblem(try await login(right, of: ana, at: client), status: 423, code: "pin_locked")
            }
        }
    }

    @Test func refreshTokenRotatedOnOneInstanceIsDetectedAsReusedOnTheOther() async throws {
        try await withTwoInstances { pair in
            let ana = try await EnrolledDevice.enrol(on: pair.a, client: pair.clientA)
            let first = try await ana.session()

            let rotated = try await refresh(first.refreshToken, of: ana, at: pair.clientA)
            try #require(rotated.status == 200, "refresh at A: \(rotated)")
            let newest = try rotated.decode(Session.self)
            #expect(newest.refreshToken != first.refreshToken)

            // The old token again, at B: reuse, and the family is revoked.
            expectProblem(
                try await refresh(first.refreshToken, of: ana, at: pair.clientB), status: 401,
                code: "refresh_token_reused")

            // The newest token of the family fails too, at A; so does its access token, at either instance.
            let afterwards = try await refresh(newest.refreshToken, of: ana, at: pair.clientA)
            #expect(afterwards.status == 401, "the newest refresh token at A after the reuse: \(afterwards)")
            let code = try? afterwards.object()["code"] as? String
            #expect(
                code == "refresh_token_invalid" || code == "refresh_token_reused",
                "a refresh token of a revoked family: \(afterwards)")
            for client in [pair.clientA, pair.clientB] {
                let listed = try await ana.devices(accessToken: newest.accessToken, at: client)
                #expect(listed.status == 401, "the revoked session's access token at \(client.baseURL): \(listed)")
            }
            // Another session of the same device is not part of that family.
            #expect(try await ana.devices(accessToken: ana.firstSession.accessToken).status == 200)
        }
    }

    @Test func longPollOnOneInstanceIsAnsweredByAConfirmationCreatedThroughTheOther() async throws {
        try await withTwoInstances { pair in
            let ana = try await EnrolledDevice.enrol(on: pair.a, client: pair.clientA)
            let created = try await pair.admin(["api-key", "create", "com.example.demo"])
            try #require(created.status == 0, "admin api-key create: \(created)")
            let apiKey = try #require(created.stdoutLines.last).trimmingCharacters(in: .whitespaces)
            let keyHeader = ["Authorization": "ApiKey \(apiKey)"]

            // The device waits at A.
            let inboxPath = "/v1/devices/\(ana.deviceId)/inbox"
            let proof = try await ana.device.request(deviceId: ana.deviceId, method: "GET", path: inboxPath)
            let started = ContinuousClock.now
            let clientA = pair.clientA
            let poll = Task {
                try await clientA.get(
                    inboxPath + "?waitSeconds=20", headers: ["Authorization": "TouchstoneDevice \(proof)"])
            }
            defer { poll.cancel() }
            try await Task.sleep(for: .seconds(2))

            // A relying service asks through B.
            let request = ConfirmationRequest(
                username: ana.username, text: "Pay the invoice 2026-118", amount: "1250.40", currency: "EUR",
                payee: "Acme Supplies GmbH")
            let posted = try await pair.clientB.post("/v1/confirmations", request, headers: keyHeader)
            try #require(posted.status == 201, "POST /v1/confirmations at B: \(posted)")
            let confirmation = try posted.decode(ConfirmationCreated.self)
            #expect(confirmation.status == .pending)
            let postedAt = ContinuousClock.now

            let answered = try await poll.value
            let answeredAt = ContinuousClock.now
            try #require(answered.status == 200, "the long-poll at A: \(answered)")
            #expect(answeredAt - started < .seconds(12), "well before 20 s: \(answeredAt - started)")
            #expect(answeredAt - postedAt < .seconds(8), "soon after the confirmation: \(answeredAt - postedAt)")
            let items = try answered.decode(Inbox.self).items
            try #require(items.count == 1, "\(answered)")
            let item = items[0]
            #expect(item.kind == .confirmation && item.id == confirmation.confirmationId, "\(answered)")
            #expect(item.clientId == "com.example.demo")
            #expect(
                item.text == request.text && item.amount == request.amount && item.currency == request.currency
                    && item.payee == request.payee, "\(answered)")

            // Still pending, read through B.
            let pending = try await pair.clientB.get(
                "/v1/confirmations/\(confirmation.confirmationId)", headers: keyHeader)
            try #require(pending.status == 200, "\(pending)")
            #expect(try pending.decode(ConfirmationState.self).status == .pending)

            // Approved through A, read through B.
            let txn = TransactionHash.of(
                text: request.text, amount: request.amount, currency: request.currency, payee: request.payee)
            let decision = try await ana.device.decision(deviceId: ana.deviceId, challenge: item.challenge, txn: txn)
            let decided = try await pair.clientA.post(
                "/v1/confirmations/\(confirmation.confirmationId)/decision", DecisionRequest(assertion: decision))
            try #require(decided.status == 200, "decision at A: \(decided)")
            #expect(try decided.decode(DecisionRecorded.self).status == .approved)

            let read = try await pair.clientB.get(
                "/v1/confirmations/\(confirmation.confirmationId)", headers: keyHeader)
            try #require(read.status == 200, "GET /v1/confirmations/{id} at B: \(read)")
            let state = try read.decode(ConfirmationState.self)
            #expect(state.status == .approved, "\(read)")
            #expect(state.deviceId == ana.deviceId && state.amr == ["bio"] && state.txn == txn, "\(read)")
            // The evidence is the server's receipt of the decision, not the device's token.
            #expect(state.decision != nil && state.decision != decision && state.decidedAt != nil, "\(read)")

            // Decided once: the same item decided again at B (a denial now) is refused. An approval signed again in
            // the same second would be the very token already spent, a replay: 401 `challenge_invalid`.
            let twice = try await ana.device.decision(
                deviceId: ana.deviceId, challenge: item.challenge, approve: false, txn: txn)
            expectProblem(
                try await pair.clientB.post(
                    "/v1/confirmations/\(confirmation.confirmationId)/decision", DecisionRequest(assertion: twice)),
                status: 409, code: "already_decided")
        }
    }

    // MARK: - Two instances

    /// Two started instances on one database, and clients for each.
    struct Pair {
        let a: ServerProcess
        let b: ServerProcess
        let clientA: WireClient
        let clientB: WireClient
        /// The `--database` URL both share.
        let database: String

        /// A for even indices, B for odd ones.
        func client(_ index: Int) -> WireClient {
            index.isMultiple(of: 2) ? clientA : clientB
        }

        /// A new client (its own connections) for A on even indices and B on odd ones: concurrent requests are
        /// not queued behind each other in one URLSession.
        func fresh(_ index: Int) -> WireClient {
            WireClient(baseURL: (index.isMultiple(of: 2) ? a : b).baseURL)
        }

        /// `touchstone admin ARGUMENTS --database URL`.
        func admin(_ arguments: [String]) async throws -> CommandResult {
            try await TouchstoneExecutable.run(["admin"] + arguments + ["--database", database], in: a.directory)
        }
    }

    /// Runs `body` with two `touchstone serve` processes started together on a new PostgreSQL database, both with
    /// ISSUER ``issuer``; both are stopped however `body` ends, then the database is dropped.
    private func withTwoInstances<T>(_ body: (Pair) async throws -> T) async throws -> T {
        try await TestDatabase.with(.postgres) { database in
            // `serve --port 0 --database FILE` comes first in ServerProcess.start; the last option wins.
            let arguments = ["--database", database, "--issuer", Self.issuer]
            async let startingA = Self.start(arguments)
            async let startingB = Self.start(arguments)
            let (startedA, startedB) = await (startingA, startingB)
            guard case .success(let a) = startedA, case .success(let b) = startedB else {
                if case .success(let a) = startedA { await a.stop() }
                if case .success(let b) = startedB { await b.stop() }
                if case .failure(let error) = startedA { throw error }
                if case .failure(let error) = startedB { throw error }
                fatalError("unreachable")
            }
            let pair = Pair(
                a: a, b: b, clientA: WireClient(baseURL: a.baseURL), clientB: WireClient(baseURL: b.baseURL),
                database: database)
            do {
                try #require(a.baseURL != b.baseURL, "two instances: \(a.baseURL), \(b.baseURL)")
                try #require(a.issuer == Self.issuer && b.issuer == Self.issuer, "one issuer: \(a.issuer), \(b.issuer)")
                let result = try await body(pair)
                await Self.stop(pair)
                return result
            } catch {
                await Self.stop(pair)
                throw error
            }
        }
    }

    private static func start(_ arguments: [String]) async -> Result<ServerProcess, any Error> {
        do {
            return .success(try await ServerProcess.start(arguments))
        } catch {
            return .failure(error)
        }
    }

    /// Stops both; each should end cleanly on SIGTERM.
    private static func stop(_ pair: Pair) async {
        let statusA = await pair.a.stop()
        let statusB = await pair.b.stop()
        #expect(statusA == 0 && statusB == 0, "exit statuses after SIGTERM: A \(statusA), B \(statusB)")
    }

    // MARK: - Requests at a chosen instance

    /// `POST /v1/challenges` for the device at `client`'s instance; the challenge, which must be issued.
    private func issueChallenge(for device: EnrolledDevice, at client: WireClient) async throws -> String {
        let response = try await client.post("/v1/challenges", ChallengeRequest(deviceId: device.deviceId))
        try #require(response.status == 201, "POST /v1/challenges at \(client.baseURL): \(response)")
        return try response.decode(ChallengeIssued.self).challenge
    }

    /// `POST /v1/sessions` at `client`'s instance, as answered.
    private func login(_ assertion: String, of device: EnrolledDevice, at client: WireClient) async throws
        -> WireResponse
    {
        try await client.post("/v1/sessions", AssertionLoginRequest(clientId: device.clientId, assertion: assertion))
    }

    /// `POST /v1/sessions/refresh` signed by the device, at `client`'s instance, as answered.
    private func refresh(_ refreshToken: String, of device: EnrolledDevice, at client: WireClient) async throws
        -> WireResponse
    {
        let proof = try await device.device.request(deviceId: device.deviceId, path: "/v1/sessions/refresh")
        return try await client.post(
            "/v1/sessions/refresh", RefreshRequest(refreshToken: refreshToken),
            headers: ["Authorization": "TouchstoneDevice \(proof)"])
    }

    /// Runs `send` for every index at once; the answers in index order.
    private func concurrently(
        _ indices: Range<Int>, _ send: @escaping @Sendable (Int) async throws -> WireResponse
    ) async throws -> [WireResponse] {
        try await withThrowingTaskGroup(of: (Int, WireResponse).self) { group in
            for index in indices {
                group.addTask { (index, try await send(index)) }
            }
            var answers: [Int: WireResponse] = [:]
            for try await (index, answer) in group {
                answers[index] = answer
            }
            return indices.map { answers[$0]! }
        }
    }
}
