import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Testing
import TouchstoneTestSupport
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// A real Touchstone server on a real socket, on a fresh SQLite file, for the SDK to talk to over HTTP.
///
/// Its ISSUER is `http://localhost:<port>`, the URL the SDK is given, so the `aud` of device tokens matches.
/// Everything it creates (database, device profiles) lives in one scratch directory, deleted afterwards.
struct LiveServer: Sendable {
    static let demoApp = "com.example.demo"
    static let password = "correct horse battery"
    static let pin = "482916"
    static let wrongPIN = "590417"

    let runtime: TouchstoneRuntime
    let url: URL
    let clock: TestClock
    let scratch: URL

    var store: any TouchstoneStore { runtime.environment.store }

    /// Runs `body` against a new server (on SQLite, then on PostgreSQL when a test server is configured), then
    /// stops it and deletes everything it made.
    static func run(_ body: @Sendable (LiveServer) async throws -> Void) async throws {
        for kind in TestDatabase.kinds {
            try await ServerSlots.shared.withSlot {
                try await TestDatabase.withMigrated(kind) { database in
                    try await run(database: database, body)
                }
            }
        }
    }

    private static func run(database: String, _ body: @Sendable (LiveServer) async throws -> Void) async throws {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "touchstone-sdk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var attempt = 0
        while true {
            attempt += 1
            do {
                try await serve(port: try FreePort.claim(), database: database, scratch: scratch, body)
                return
            } catch let error as ServerDidNotStart {
                // Another process took the port between the check and the bind: try another one.
                if attempt >= 3 { throw error }
            }
        }
    }

    private static func serve(
        port: Int, database: String, scratch: URL, _ body: @Sendable (LiveServer) async throws -> Void
    ) async throws {
        let clock = TestClock()
        var settings = try ServerSettings(issuer: "http://localhost:\(port)")
        // bcrypt at a test cost: the server tests check the real one.
        settings.insecureTestBcryptCost = 4
        let runtime = try await TouchstoneRuntime.open(
            database: try DatabaseLocation(database, poolSize: 8), settings: settings, clock: clock, logger: quietLogger)
        let server = LiveServer(
            runtime: runtime, url: try #require(URL(string: "http://localhost:\(port)")), clock: clock, scratch: scratch)
        let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
        let application = runtime.application(host: "127.0.0.1", port: port) { _ in readyContinuation.yield() }
        let services = ServiceGroup(configuration: .init(services: [application], logger: quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { readyContinuation.finish() }
                try await services.run()
            }
            var iterator = ready.makeAsyncIterator()
            guard await iterator.next() != nil else {
                do {
                    try await tasks.waitForAll()
                } catch {
                    throw ServerDidNotStart(reason: "\(error)")
                }
                throw ServerDidNotStart(reason: "the server stopped before it accepted connections")
            }
            var failure: (any Error)?
            do {
                try await body(server)
            } catch {
                failure = error
            }
            await services.triggerGracefulShutdown()
            try await tasks.waitForAll()
            if let failure { throw failure }
        }
    }

    private static let quietLogger: Logger = {
        var logger = Logger(label: "touchstone-sdk-tests")
        logger.logLevel = .critical
        return logger
    }()

    // MARK: Devices

    /// A new, empty device profile (its directory is not created: the key store does that).
    func profile() -> Profile {
        Profile(directory: scratch.appending(path: "profile-\(UUID().uuidString)").appending(path: "keys"))
    }

    /// A transport to this server that records what is sent, after `rewrite` when given.
    func recorder(rewriting rewrite: (@Sendable (inout TransportRequest) throws -> Void)? = nil) -> RecordingTransport {
        RecordingTransport(server: url, rewriting: rewrite)
    }

    /// An SDK client on `profile`, talking to this server.
    func client(
        _ profile: Profile, clientID: String = LiveServer.demoApp,
        verifier: any UserVerifier = ScriptedVerifier(.match), deviceName: String = "Test Device",
        compromised: Bool = false, transport: RecordingTransport? = nil
    ) -> TouchstoneClient {
        TouchstoneClient(
            server: url, clientID: clientID,
            platform: .software(
                directory: profile.directory, verifier: verifier, deviceName: deviceName, compromised: compromised,
                transport: transport))
    }

    /// Creates the account `username` with ``password`` and registers `client` with ``pin``.
    @discardableResult
    func register(_ client: TouchstoneClient, username: String = "ana", pin: String? = LiveServer.pin) async throws
        -> Session
    {
        try await createUser(username)
        return try await client.register(username: username, password: Self.password, pin: pin)
    }

    // MARK: Server state

    /// Creates an account straight in the store (the SDK does not sign up); the password is ``password``.
    @discardableResult
    func createUser(_ username: String = "ana") async throws -> String {
        let id = UUID().uuidString.lowercased()
        try await store.createUser(
            UserRecord(
                id: id, username: username,
                passwordHash: try await PasswordHashCache.shared.hash(Self.password, with: runtime.environment.hasher),
                createdAt: clock.now()))
        return id
    }

    /// Saves an app straight in the store, as `touchstone admin app create` does (without its minimums).
    func saveApp(_ clientId: String, publisher: String = "demo", configure: (inout AppPolicy) -> Void = { _ in })
        async throws
    {
        var policy = AppPolicy(clientId: clientId, publisher: publisher)
        configure(&policy)
        try await store.saveApp(AppRecord(clientId: clientId, publisher: publisher, policy: policy), at: clock.now())
    }

    /// Changes the policy of an existing app.
    func updatePolicy(_ clientId: String = LiveServer.demoApp, _ configure: (inout AppPolicy) -> Void) async throws {
        var app = try #require(try await store.app(clientId: clientId))
        configure(&app.policy)
        try await store.saveApp(app, at: clock.now())
    }

    /// The server's record of a device.
    func device(_ id: String?) async throws -> DeviceRecord {
        let id = try #require(id)
        return try #require(try await store.device(id: id))
    }

    /// The server's record of the session an access token belongs to.
    func sessionRecord(_ session: Session) async throws -> SessionRecord {
        let sid = try #require(try jwtClaims(session.accessToken)["sid"] as? String)
        return try #require(try await store.session(id: sid))
    }

    /// Audit events of one kind, e.g. `.enrollmentStart`.
    func auditEvents(_ event: AuditEventType) async throws -> [AuditEvent] {
        try await store.auditEvents(since: nil, userId: nil).filter { $0.event == event }
    }
}
