import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// `touchstone device` as a process: a server whose issuer is the URL devices reach it at, profiles in their own
/// directories, standard input fed from a file, and the admin tools' JSON as the server's own record.
enum DeviceCLI {
    static let password = "tangerine-Orbit-5521"
    static let pin = "482915"
    /// A well-formed PIN that is not ``pin``.
    static let wrongPIN = "975310"

    /// `status --json`.
    struct Status: Decodable, Equatable {
        var registered: Bool
        var deviceId: String?
        var username: String?
        var clientId: String
        var biometric: Bool
    }

    /// One device of `admin devices --json`.
    struct ServerDevice: Decodable {
        var deviceId: String
        var username: String
        var clientId: String
        var publisher: String
        var name: String
        var biometric: Bool
        var pinLocked: Bool
        var revokedAt: Date?
    }

    /// One event of `admin audit --json`.
    struct AuditEvent: Decodable, CustomStringConvertible {
        var event: String
        var outcome: String
        var userId: String?
        var deviceId: String?
        var clientId: String?

        var description: String { "\(event) \(outcome) device=\(deviceId ?? "-") app=\(clientId ?? "-")" }
    }

    /// Runs `body` with a `touchstone serve` on a free loopback port P and issuer `http://localhost:P`, so that
    /// `touchstone device --server` can name the server by its issuer; the server is stopped whatever happens.
    static func withServer<T>(
        _ arguments: [String] = [], _ body: (ServerProcess, WireClient) async throws -> T
    ) async throws -> T {
        try await TouchstoneTestSupport.withServer(arguments, atLocalhost: true) { server, client in
            try #require(
                server.issuer == "http://localhost:\(server.baseURL.port ?? -1)",
                "the issuer is the URL devices use: \(server.issuer), \(server.baseURL)")
            return try await body(server, client)
        }
    }

    /// A loopback port nothing listens on right now.
    static func freeLoopbackPort() throws -> Int {
        try FreePort.claim()
    }

    /// Creates an account over HTTP (`POST /v1/accounts`), as a user signing up would.
    static func createAccount(_ username: String, on client: WireClient) async throws {
        let created = try await client.post("/v1/accounts", CreateAccountRequest(username: username, password: password))
        try #require(created.status == 201, "POST /v1/accounts: \(created)")
    }

    /// `admin devices --json`, all users.
    static func serverDevices(_ server: ServerProcess) async throws -> [ServerDevice] {
        let result = try await server.admin(["devices", "--json"])
        try #require(result.status == 0, "admin devices: \(result)")
        return try #require(try result.json([String: [ServerDevice]].self)["devices"], "\(result)")
    }

    /// The server's record of one device.
    static func serverDevice(_ deviceId: String?, on server: ServerProcess) async throws -> ServerDevice {
        let deviceId = try #require(deviceId)
        return try #require(
            try await serverDevices(server).first { $0.deviceId == deviceId }, "device \(deviceId) on the server")
    }

    /// `admin audit --json`, all events in time order.
    static func audit(_ server: ServerProcess) async throws -> [AuditEvent] {
        let result = try await server.admin(["audit", "--json"])
        try #require(result.status == 0, "admin audit: \(result)")
        return try #require(try result.json([String: [AuditEvent]].self)["events"], "\(result)")
    }

    /// Runs `touchstone ARGUMENTS` in `directory` with `input` as standard input (empty when `nil`).
    /// - Parameter timeout: seconds after which the process is killed and the result marked `timedOut`.
    static func run(
        _ arguments: [String], input: String?, in directory: ScratchDirectory, environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) async throws -> CommandResult {
        try await TouchstoneExecutable.run(
            arguments, input: input, in: directory, environment: environment, timeout: timeout)
    }

    /// One device profile (`--profile`) in its own scratch directory, pointed at one server (`--server`).
    struct Profile {
        let scratch: ScratchDirectory
        /// The `--server` URL.
        let server: String

        /// The profile directory; the tool creates it.
        var path: String { scratch.path("profile") }

        init(server: String) throws {
            scratch = try ScratchDirectory()
            self.server = server
        }

        init(_ server: ServerProcess) throws {
            try self.init(server: server.issuer)
        }

        /// `touchstone device --profile P --server S ARGUMENTS`, the options before the subcommand.
        func run(
            _ arguments: [String], input: String? = nil, environment: [String: String] = [:], timeout: TimeInterval = 60
        ) async throws -> CommandResult {
            try await DeviceCLI.run(
                ["device", "--profile", path, "--server", server] + arguments, input: input, in: scratch,
                environment: environment, timeout: timeout)
        }

        /// Starts `touchstone device --profile P --server S ARGUMENTS` and returns while it runs.
        func start(_ arguments: [String], input: String) throws -> RunningCommand {
            try RunningCommand(["device", "--profile", path, "--server", server] + arguments, input: input, in: scratch)
        }

        /// `register --username U --password-stdin --pin P --verifier V`, which must succeed.
        @discardableResult
        func register(
            _ username: String, verifier: String? = "match", pin: String? = DeviceCLI.pin, options: [String] = [],
            environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> Status {
            let arguments =
                options + ["register", "--username", username, "--password-stdin"]
                + (pin.map { ["--pin", $0] } ?? []) + (verifier.map { ["--verifier", $0] } ?? [])
            let result = try await run(arguments, input: DeviceCLI.password + "\n", environment: environment)
            try #require(
                result.status == 0 && !result.timedOut, "register: \(result)", sourceLocation: sourceLocation)
            let status = try await self.status(options: options, sourceLocation: sourceLocation)
            try #require(status.registered, "registered after register: \(status)", sourceLocation: sourceLocation)
            return status
        }

        /// `status --json`, which must succeed.
        func status(options: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) async throws -> Status {
            let result = try await run(options + ["status", "--json"])
            try #require(result.status == 0 && !result.timedOut, "status: \(result)", sourceLocation: sourceLocation)
            return try result.json(Status.self)
        }

        /// `login … --json`, which must succeed; the session it prints.
        func login(
            _ arguments: [String], input: String? = nil, options: [String] = [],
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> Session {
            let result = try await run(options + ["login"] + arguments + ["--json"], input: input)
            try #require(result.status == 0 && !result.timedOut, "login: \(result)", sourceLocation: sourceLocation)
            #expect(result.stdoutLines.count == 1, "one JSON object: \(result)", sourceLocation: sourceLocation)
            return try result.json(Session.self)
        }

        /// The names of the files in the profile directory (none when it does not exist).
        func fileNames() throws -> [String] {
            guard FileManager.default.fileExists(atPath: path) else { return [] }
            return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        }
    }
}

/// Checks that a run failed the way §7 says: non-zero exit, nothing on standard output, exactly one line on standard
/// error, starting `touchstone: ` and containing every one of `words` (case-insensitive).
func expectOneErrorLine(
    _ result: CommandResult, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(!result.timedOut, "\(result)", sourceLocation: sourceLocation)
    #expect(result.status != 0, "non-zero exit: \(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "nothing on standard output: \(result)", sourceLocation: sourceLocation)
    #expect(result.stderrLines.count == 1, "one line on standard error: \(result)", sourceLocation: sourceLocation)
    #expect(
        result.stderrLines.first?.hasPrefix("touchstone: ") == true, "the line starts `touchstone: `: \(result)",
        sourceLocation: sourceLocation)
    for word in words {
        #expect(
            result.stderr.lowercased().contains(word.lowercased()), "the line mentions \"\(word)\": \(result)",
            sourceLocation: sourceLocation)
    }
}
