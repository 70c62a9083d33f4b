import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// A server on a fresh database (a copy of the migrated template, on SQLite and on PostgreSQL) with a manual clock,
/// driven through its router.
struct Harness {
    static let issuer = "http://localhost:8080"
    static let password = "correct horse battery"
    static let pin = "482916"

    let runtime: TouchstoneRuntime
    let clock: ManualClock
    let client: any TestClientProtocol
    /// The enrolled test devices by device id: a Bearer request with a device session's token is signed by its device
    /// (`Touchstone-Device-Proof`), as the SDK does.
    let devices = DeviceBook()

    var store: any TouchstoneStore { runtime.environment.store }
    var now: Date { clock.now() }

    /// Which store this run uses.
    let database: TestDatabase.Kind

    /// The bcrypt cost of the tests' servers: bcrypt at the production cost was two thirds of this target's time.
    /// Tests of the cost itself, and races whose window is a bcrypt, use ``productionBcrypt``.
    static let bcryptCost: UInt8 = 4

    /// Runs `body` against a new server, once on SQLite and once on PostgreSQL when a test server is configured;
    /// each database is dropped afterwards.
    static func run(
        configure: (inout ServerSettings) -> Void = { _ in },
        logger: Logger? = nil,
        _ body: @Sendable (Harness) async throws -> Void
    ) async throws {
        var settings = try ServerSettings(issuer: issuer)
        settings.insecureTestBcryptCost = bcryptCost
        configure(&settings)
        for kind in TestDatabase.kinds {
            try await run(kind, settings: settings, logger: logger, body)
        }
    }

    /// Servers running at once in this process. Every test starts together; hundreds of servers (and their
    /// PostgreSQL pools) at once on two cores only make each wait longer, until database steps pass their bounds.
    private static let slots = Slots(16)

    private static func run(
        _ kind: TestDatabase.Kind, settings: ServerSettings, logger: Logger?, _ body: @Sendable (Harness) async throws -> Void
    ) async throws {
        await slots.acquire()
        do {
            try await serve(kind, settings: settings, logger: logger, body)
            await slots.release()
        } catch {
            await slots.release()
            throw error
        }
    }

    private static func serve(
        _ kind: TestDatabase.Kind, settings: ServerSettings, logger: Logger?, _ body: @Sendable (Harness) async throws -> Void
    ) async throws {
        try await TestDatabase.withMigrated(kind) { database in
            let clock = ManualClock()
            let logger = logger ?? {
                var logger = Logger(label: "test")
                logger.logLevel = .critical
                return logger
            }()
            let runtime = try await TouchstoneRuntime.open(
                database: try DatabaseLocation(database, poolSize: 8), settings: settings, clock: clock, logger: logger)
            try await runtime.run {
                try await Application(router: runtime.router()).test(.router) { client in
                    try await body(Harness(runtime: runtime, clock: clock, client: client, database: kind))
                }
            }
        }
    }

    /// A `configure` for ``run(configure:logger:_:)``: bcrypt at the server's own cost.
    static func productionBcrypt(_ settings: inout ServerSettings) {
        settings.insecureTestBcryptCost = nil
    }

    // MARK: HTTP

    /// Sends a request. A Bearer token of a device session gets the `Touchstone-Device-Proof` of this request from
    /// its device (when the harness enrolled it and the headers carry none), unless `signedByDevice` is false.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: (any Encodable)? = nil, raw: String? = nil,
        headers: HTTPFields = [:], signedByDevice: Bool = true
    ) async throws -> TestResponse {
        var headers = headers
        if signedByDevice, headers[.deviceProof] == nil, let authorization = headers[.authorization],
            authorization.hasPrefix("Bearer "),
            case let parts = authorization.dropFirst("Bearer ".count).split(separator: "."), parts.count == 3,
            let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
            claims["cnf"] != nil, let deviceId = claims["did"] as? String, let device = devices[deviceId]
        {
            let bare = String(path.prefix { $0 != "?" })
            headers[.deviceProof] = try await device.request(
                deviceId: deviceId, method: method.rawValue, path: bare, now: now)
        }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try WireCoding.encoder().encode(json))
        } else if let raw {
            body = ByteBuffer(string: raw)
        }
        return try await client.execute(uri: path, method: method, headers: headers, body: body)
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try WireCoding.decoder().decode(type, from: Data(buffer: response.body))
    }

    func problem(_ response: TestResponse) throws -> Problem {
        #expect(response.headers[.contentType] == "application/problem+json")
        return try decode(Problem.self, response)
    }

    /// Expects a problem answer with this status and code.
    @discardableResult
    func expectProblem(
        _ response: TestResponse, _ status: Int, _ code: ProblemCode, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Problem {
        #expect(Int(response.status.code) == status, sourceLocation: sourceLocation)
        let problem = try problem(response)
        #expect(problem.code == code, sourceLocation: sourceLocation)
        #expect(problem.status == status, sourceLocation: sourceLocation)
        return problem
    }

    // MARK: Flows

    @discardableResult
    func createAccount(_ username: String = "ana", password: String = Harness.password) async throws -> String {
        let response = try await send(.post, "/v1/accounts", json: CreateAccountRequest(username: username, password: password))
        #expect(response.status == .created)
        return try decode(CreateAccountResponse.self, response).userId
    }

    func startEnrollment(_ username: String = "ana", clientId: String = "com.example.demo", password: String = Harness.password)
        async throws -> EnrollmentStarted
    {
        let response = try await send(
            .post, "/v1/enrollments",
            json: PasswordLoginRequest(clientId: clientId, username: username, password: password))
        #expect(response.status == .created)
        return try decode(EnrollmentStarted.self, response)
    }

    /// - Parameter previous: the enrolled device this one replaces, which signs `previousDeviceProof`.
    func completeEnrollment(
        _ device: TestDevice, _ started: EnrollmentStarted, pin: String? = Harness.pin, replacing previous: TestDevice? = nil
    ) async throws -> TestResponse {
        try await send(
            .post, "/v1/enrollments/\(started.enrollmentId)/complete",
            json: try await device.completion(
                enrollmentId: started.enrollmentId, challenge: started.challenge, pin: pin, replacing: previous,
                now: now))
    }

    /// Creates the account if needed and enrols the device; returns its id and first session.
    func enroll(
        _ device: TestDevice, username: String = "ana", clientId: String = "com.example.demo", pin: String? = Harness.pin,
        createAccount: Bool = true
    ) async throws -> EnrollmentCompleted {
        if createAccount {
            try await self.createAccount(username)
        }
        let started = try await startEnrollment(username, clientId: clientId)
        let response = try await completeEnrollment(device, started, pin: pin)
        #expect(response.status == .created)
        let completed = try decode(EnrollmentCompleted.self, response)
        devices[completed.deviceId] = device
        return completed
    }

    func challenge(_ deviceId: String) async throws -> String {
        let response = try await send(.post, "/v1/challenges", json: ChallengeRequest(deviceId: deviceId))
        #expect(response.status == .created)
        return try decode(ChallengeIssued.self, response).challenge
    }

    /// A fresh challenge answered by the device: biometric, or with `pin`.
    func login(
        _ device: TestDevice, deviceId: String, pin: String? = nil, clientId: String = "com.example.demo"
    ) async throws -> TestResponse {
        let challenge = try await challenge(deviceId)
        let assertion = try await device.assertion(deviceId: deviceId, challenge: challenge, pin: pin, now: now)
        return try await send(.post, "/v1/sessions", json: AssertionLoginRequest(clientId: clientId, assertion: assertion))
    }

    /// `session` with its access token stepped up (`POST /v1/step-up`) to a privileged one.
    func stepUp(_ session: Session) async throws -> Session {
        let response = try await send(
            .post, "/v1/step-up", json: PasswordRequest(password: Harness.password), headers: bearer(session))
        #expect(response.status == .ok)
        var privileged = session
        privileged.accessToken = try decode(StepUpToken.self, response).accessToken
        return privileged
    }

    func bearer(_ session: Session) -> HTTPFields {
        [.authorization: "Bearer \(session.accessToken)"]
    }

    /// Saves an app straight in the store (as `admin app create` does).
    func saveApp(_ policy: AppPolicy) async throws {
        try await store.saveApp(
            AppRecord(clientId: policy.clientId, publisher: policy.publisher, policy: policy), at: now)
    }
}

/// Decodes a JWT's header and payload without verifying; for inspecting tokens in tests.
func jwtParts(_ token: String) throws -> (header: [String: Any], payload: [String: Any]) {
    let parts = token.split(separator: ".").map(String.init)
    try #require(parts.count == 3)
    let header = try #require(Base64URL.decode(parts[0]))
    let payload = try #require(Base64URL.decode(parts[1]))
    return (
        try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any]),
        try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
    )
}

// MARK: Inbox, decisions, API keys

import TouchstoneCrypto

extension Harness {
    /// `GET /v1/devices/{deviceId}/inbox`, signed with a fresh request token of `device`'s key.
    func deviceInbox(_ device: TestDevice, deviceId: String, waitSeconds: Int? = nil) async throws -> TestResponse {
        let path = "/v1/devices/\(deviceId)/inbox"
        let proof = try await device.request(deviceId: deviceId, method: "GET", path: path, now: now)
        return try await send(
            .get, path + (waitSeconds.map { "?waitSeconds=\($0)" } ?? ""),
            headers: [.authorization: "TouchstoneDevice \(proof)"])
    }

    /// The items of `device`'s inbox, expecting 200.
    func inboxItems(
        _ device: TestDevice, deviceId: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [InboxItem] {
        let response = try await deviceInbox(device, deviceId: deviceId)
        #expect(response.status == .ok, sourceLocation: sourceLocation)
        return try decode(Inbox.self, response).items
    }

    /// `POST /v1/{items}/{id}/decision`, e.g. `decide("confirmations", id, assertion)`.
    func decide(_ items: String, _ id: String, _ assertion: String) async throws -> TestResponse {
        try await send(.post, "/v1/\(items)/\(id)/decision", json: DecisionRequest(assertion: assertion))
    }

    /// Creates an API key of the app straight in the store (as `admin api-key create` does).
    func newAPIKey(for clientId: String) async throws -> String {
        let key = "tsk_" + SecretDigest.randomToken()
        try await store.createAPIKey(
            APIKeyRecord(id: UUID().uuidString, clientId: clientId, createdAt: now, revokedAt: nil),
            hash: SecretDigest.sha256(key))
        return key
    }

    /// A response body as a JSON object, for checking exactly which members it has.
    func jsonObject(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }
}

/// The test devices a harness enrolled, by device id.
final class DeviceBook: Sendable {
    private let devices = Mutex<[String: TestDevice]>([:])

    subscript(deviceId: String) -> TestDevice? {
        get { devices.withLock { $0[deviceId] } }
        set { devices.withLock { $0[deviceId] = newValue } }
    }
}

extension HTTPField.Name {
    static let deviceProof = Self(TouchstoneHeader.deviceProof)!
}

/// A counting semaphore: at most `count` holders at once, the others wait in order.
actor Slots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) {
        free = count
    }

    func acquire() async {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
