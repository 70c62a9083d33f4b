import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOPosix
import Prometheus
import Synchronization
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Password and PIN hashing is bounded (PROTOCOL "Operations"): beyond the bound a request that needs a hash gets 503
/// `temporarily_unavailable` with `Retry-After: 1` at once, having counted, spent and stored nothing.
@Suite struct HashingGateTests {
    @Test func theGateRefusesBeyondItsLimitAndAdmitsAgainWhenASlotIsGivenBack() async throws {
        let registry = PrometheusCollectorRegistry()
        let gate = HashingGate(limit: 2, metrics: ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)))
        let holders = (0..<2).map { _ in
            Task { try await gate.admitting { try await Task.sleep(for: .seconds(3600)) } }
        }
        try #require(await Self.eventually { gate.admittedCount == 2 })

        let ran = Mutex(false)
        await #expect(throws: HashingGate.refusal) { try await gate.admitting { ran.withLock { $0 = true } } }
        #expect(!ran.withLock { $0 })
        #expect(HashingGate.refusal.code == .temporarilyUnavailable && HashingGate.refusal.retryAfter == 1)
        #expect(Self.refusals(registry) == 1)

        // A slot comes back however its holder ends: here cancelled.
        holders[0].cancel()
        _ = await holders[0].result
        #expect(gate.admittedCount == 1)
        #expect(try await gate.admitting { 7 } == 7)
        await #expect(throws: ProblemError.invalidCredentials) {
            try await gate.admitting { throw ProblemError.invalidCredentials }
        }
        #expect(gate.admittedCount == 1)
        holders[1].cancel()
        _ = await holders[1].result
        #expect(gate.admittedCount == 0)
        #expect(Self.refusals(registry) == 1)
    }

    @Test func hashesInsideAnAdmissionUseItsSlotAndOutsideOneTakeTheirOwn() async throws {
        let registry = PrometheusCollectorRegistry()
        let gate = HashingGate(limit: 1, metrics: ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)))
        let hasher = try await PasswordHasher(
            cost: Harness.bcryptCost, bcrypt: HummingbirdBcryptFunction(), insecurelyBelowMinimum: true, gate: gate)
        // One slot, and the admission holds it: the nested admission and the hashes inside take no other.
        try await hasher.admitting {
            #expect(gate.admittedCount == 1)
            try await hasher.admitting {
                let hash = try await hasher.hash("secret")
                #expect(try await hasher.verify("secret", against: hash))
            }
            #expect(gate.admittedCount == 1)
        }
        #expect(gate.admittedCount == 0)
        // An operation that hashes nothing is not admitted at all.
        #expect(try await hasher.admitting(if: false) { gate.admittedCount } == 0)

        // Outside an admission, a hash takes a slot of its own: none is free while another request holds it.
        let holder = Task { try await hasher.admitting { try await Task.sleep(for: .seconds(3600)) } }
        try #require(await Self.eventually { gate.admittedCount == 1 })
        await #expect(throws: HashingGate.refusal) { try await hasher.hash("secret") }
        await #expect(throws: HashingGate.refusal) { try await hasher.verify("secret", against: nil) }
        #expect(try await hasher.admitting(if: false) { 1 } == 1)
        #expect(Self.refusals(registry) == 2)
        holder.cancel()
        _ = await holder.result
        #expect(try await hasher.verify("secret", against: try await hasher.hash("secret")))
    }

    @Test func theServersGateHasTheConfiguredLimit() async throws {
        #expect(try ServerSettings(issuer: Harness.issuer).hashingLimit == 64)
        try await Harness.run(configure: { $0.hashingLimit = 3 }) { h in
            #expect(h.runtime.environment.hasher.gate.limit == 3)
        }
    }

    /// 503s at once for every password request beyond the bound (sign-ups, password logins, enrolment, step-up), each
    /// counting nothing (the throttle's counts included), spending nothing and storing nothing, while a biometric
    /// login is still answered.
    @Test(.timeLimit(.minutes(5)))
    func aFloodOfPasswordRequestsIsRefusedAtOnceWhileLoginsAreAnswered() async throws {
        try await Harness.run { h in
            try await HeldHashing.serve(h, limit: 2) { g, bcrypt in
                let ana = try await TestDevice()
                let enrolled = try await g.enroll(ana)
                try await g.createAccount("bo")
                let boStarted = try await g.startEnrollment("bo")
                let boPhone = try await TestDevice(name: "Bo's phone")
                let boCompletion = try await boPhone.completion(
                    enrollmentId: boStarted.enrollmentId, challenge: boStarted.challenge, pin: Harness.pin, now: g.now)

                // A PIN login and a decision with the PIN, signed before the flood.
                let challenge = try await g.challenge(enrolled.deviceId)
                let pinLogin = AssertionLoginRequest(
                    clientId: "com.example.demo",
                    assertion: try await ana.assertion(
                        deviceId: enrolled.deviceId, challenge: challenge, pin: Harness.pin, now: g.now))
                let key = try await g.newAPIKey(for: "com.example.demo")
                let confirmation = try await DecisionPolicyTests().confirmation(g, key: key)
                let item = try await DecisionPolicyTests().item(g, ana, enrolled.deviceId, confirmation)
                let pinDecision = try await ana.decision(
                    deviceId: enrolled.deviceId, challenge: item.challenge, txn: DecisionPolicyTests.txn,
                    pin: Harness.pin, now: g.now)

                // Two sign-ups take both slots and wait in bcrypt.
                bcrypt.hold()
                let waiting = (0..<2).map { index in
                    Task {
                        try await g.send(
                            .post, "/v1/accounts",
                            json: CreateAccountRequest(username: "flood\(index)", password: Harness.password))
                    }
                }
                var announced = bcrypt.waiting.makeAsyncIterator()
                for _ in 0..<2 { await announced.next() }
                let eventsBefore = try await g.store.auditEvents(since: nil, userId: nil).count

                // A flood of sign-ups and guesses, and every other request that needs a hash, is refused at once.
                let wrong = PasswordLoginRequest(
                    clientId: "com.example.demo", username: "bo", password: "wrong horse battery")
                var refused = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for index in 0..<5 {
                        group.addTask {
                            try await g.send(
                                .post, "/v1/accounts",
                                json: CreateAccountRequest(username: "late\(index)", password: Harness.password))
                        }
                    }
                    for _ in 0..<(PasswordThrottle.freeAccountFailures + 3) {
                        group.addTask { try await g.send(.post, "/v1/sessions/password", json: wrong) }
                    }
                    return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
                }
                refused.append(try await g.send(.post, "/v1/enrollments", json: wrong))
                refused.append(
                    try await g.send(.post, "/v1/enrollments/\(boStarted.enrollmentId)/complete", json: boCompletion))
                refused.append(
                    try await g.send(
                        .post, "/v1/step-up", json: PasswordRequest(password: "wrong horse battery"),
                        headers: g.bearer(enrolled.session)))
                refused.append(try await g.send(.post, "/v1/sessions", json: pinLogin))
                refused.append(try await g.decide("confirmations", confirmation, pinDecision))
                for response in refused {
                    try g.expectProblem(response, 503, .temporarilyUnavailable)
                    #expect(response.headers[.retryAfter] == "1")
                }
                #expect(try await g.store.auditEvents(since: nil, userId: nil).count == eventsBefore)
                for index in 0..<5 {
                    #expect(try await g.store.user(username: "late\(index)") == nil)
                }
                let metrics = h.runtime.metrics.emitToString()
                #expect(Self.refusals(h.runtime.metrics) == refused.count)
                #expect(!metrics.contains(#"outcome="temporarily_unavailable""#))

                // A biometric login needs no hash: it is answered meanwhile.
                let login = try await g.login(ana, deviceId: enrolled.deviceId)
                #expect(login.status == .created)

                bcrypt.letGo()
                for task in waiting {
                    #expect(try await task.value.status == .created)
                }
                // None of the refused guesses counted: bo's right password is not throttled.
                let right = PasswordLoginRequest(
                    clientId: "com.example.demo", username: "bo", password: Harness.password)
                #expect(try await g.send(.post, "/v1/sessions/password", json: right).status == .created)
                // The refused completion spent neither its proofs nor the challenge: the same body now enrols.
                let completed = try await g.send(
                    .post, "/v1/enrollments/\(boStarted.enrollmentId)/complete", json: boCompletion)
                #expect(completed.status == .created)
                // The refused PIN login left its challenge unused, and the refused decision its token unspent.
                #expect(try await g.send(.post, "/v1/sessions", json: pinLogin).status == .created)
                let decided = try await g.decide("confirmations", confirmation, pinDecision)
                #expect(decided.status == .ok)
                #expect(try g.decode(DecisionRecorded.self, decided).status == .approved)
            }
        }
    }

    /// Whether `condition` comes to hold within 10 s (a gate that never counts fails the test instead of hanging it).
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    /// The value of `touchstone_hashing_refusals_total` in `registry` (0 before any).
    static func refusals(_ registry: PrometheusCollectorRegistry) -> Int {
        let prefix = "touchstone_hashing_refusals_total "
        return registry.emitToString().split(separator: "\n")
            .first { $0.hasPrefix(prefix) }
            .flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }
}

/// A server over a harness's database whose bcrypt a test can hold: the harness's runtime, with a hasher of its own on
/// a thread pool of its own (held bcrypt blocks its threads) behind a gate of `limit` slots.
enum HeldHashing {
    static func serve(
        _ h: Harness, limit: Int, _ body: @Sendable (Harness, HeldBcrypt) async throws -> Void
    ) async throws {
        let pool = NIOThreadPool(numberOfThreads: limit + 1)
        pool.start()
        let bcrypt = HeldBcrypt()
        do {
            let shared = h.runtime.environment
            let hasher = try await PasswordHasher(
                cost: Harness.bcryptCost, bcrypt: bcrypt, threadPool: pool, insecurelyBelowMinimum: true,
                gate: HashingGate(limit: limit, metrics: shared.metrics))
            let environment = ServiceEnvironment(
                store: shared.store, clock: shared.clock, settings: shared.settings, hasher: hasher,
                signer: shared.signer, logger: shared.logger, metrics: shared.metrics)
            let router = TouchstoneRouter.build(
                services: Services(environment: environment),
                web: try WebController.bundled(
                    accountClientId: shared.settings.accountClientId, relyingPartyId: shared.settings.relyingParty.id))
            try await Application(router: router).test(.router) { client in
                let held = Harness(runtime: h.runtime, clock: h.clock, client: client, database: h.database)
                try await body(held, bcrypt)
            }
        } catch {
            bcrypt.letGo()
            try await pool.shutdownGracefully()
            throw error
        }
        bcrypt.letGo()
        try await pool.shutdownGracefully()
    }
}

/// bcrypt that a test can hold: while held, each call blocks its thread (and says so on ``waiting``) until let go, or
/// for 30 s at most, so that a broken gate fails the test instead of hanging it.
final class HeldBcrypt: BcryptFunction {
    private let bcrypt = HummingbirdBcryptFunction()
    private let isHeld = Mutex(false)
    private let released = DispatchSemaphore(value: 0)
    /// One element for each call that blocks.
    let waiting: AsyncStream<Void>
    private let announce: AsyncStream<Void>.Continuation

    init() {
        (waiting, announce) = AsyncStream.makeStream()
    }

    func hold() {
        isHeld.withLock { $0 = true }
    }

    /// Lets every blocked call go on, and every later one through.
    func letGo() {
        let wasHeld = isHeld.withLock { held in
            let was = held
            held = false
            return was
        }
        if wasHeld { released.signal() }
    }

    func hash(_ secret: String, cost: UInt8) -> String {
        pass()
        return bcrypt.hash(secret, cost: cost)
    }

    func verify(_ secret: String, hash: String) -> Bool {
        pass()
        return bcrypt.verify(secret, hash: hash)
    }

    private func pass() {
        guard isHeld.withLock({ $0 }) else { return }
        announce.yield()
        _ = released.wait(timeout: .now() + .seconds(30))
        // Passes the release on to the next blocked call.
        released.signal()
    }
}
