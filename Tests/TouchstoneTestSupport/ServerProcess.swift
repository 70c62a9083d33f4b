import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `touchstone serve` process on a free loopback port, with its own database in a scratch directory.
///
/// Use ``withServer(_:environment:_:)``: it stops the process however the test ends.
public final class ServerProcess {
    /// Where the server listens, `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The server's ISSUER (default `http://localhost:8080`: the `aud` of device tokens).
    public let issuer: String
    public let directory: ScratchDirectory
    /// The SQLite file the server and the admin commands share.
    public let database: String
    private let process: Process
    /// The server's process id.
    public var pid: Int32 { process.processIdentifier }
    private let stdoutPath: String
    private let stderrPath: String

    private init(
        baseURL: URL, issuer: String, directory: ScratchDirectory, database: String, process: Process,
        stdoutPath: String, stderrPath: String
    ) {
        self.baseURL = baseURL
        self.issuer = issuer
        self.directory = directory
        self.database = database
        self.process = process
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
    }

    /// Starts `touchstone serve --port 0` and waits for its "serving" line.
    public static func start(_ arguments: [String] = [], environment: [String: String] = [:]) async throws -> ServerProcess {
        let directory = try ScratchDirectory()
        let database = directory.path("touchstone.sqlite")
        let stdoutPath = directory.path("serve.out")
        let stderrPath = directory.path("serve.err")
        // bcrypt at cost 4, as the in-process servers of the tests: at cost 12 the process-level tests spent most of
        // their time hashing passwords and PINs. A test of the cost itself starts its own `serve`.
        let process = try TouchstoneExecutable.launch(
            ["serve", "--port", "0", "--database", database, "--insecure-bcrypt-cost", "4"] + arguments, in: directory,
            environment: environment,
            stdoutPath: stdoutPath, stderrPath: stderrPath)
        let deadline = Date().addingTimeInterval(60)
        while true {
            let output = try TouchstoneExecutable.readText(stdoutPath)
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("touchstone serving ") }),
                let ready = ReadyLine(String(line))
            {
                return ServerProcess(
                    baseURL: ready.url, issuer: ready.issuer, directory: directory, database: database,
                    process: process, stdoutPath: stdoutPath, stderrPath: stderrPath)
            }
            guard process.isRunning, Date() < deadline else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw StartFailure(
                    description: "touchstone serve did not start:\n\(output)\n\(try TouchstoneExecutable.readText(stderrPath))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Starts `touchstone serve` on a free loopback port P with issuer `http://localhost:P`, so that browsers and
    /// `touchstone device --server` name it by its issuer (WebAuthn refuses IP-address origins).
    public static func startAtLocalhost(
        _ arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        for attempt in 1...3 {
            let port = try FreePort.claim()
            do {
                // `serve --port 0` comes first in `start`; the last --port wins.
                return try await start(
                    ["--port", "\(port)", "--issuer", "http://localhost:\(port)"] + arguments, environment: environment)
            } catch is StartFailure where attempt < 3 {
                // Someone else took the port between picking and binding: pick another.
                continue
            }
        }
        throw StartFailure(description: "no free port for touchstone serve")
    }

    /// The issuer's URL (`http://localhost:P` after ``startAtLocalhost(_:environment:)``).
    public var issuerURL: URL {
        URL(string: issuer) ?? baseURL
    }

    /// Everything the server wrote to standard error so far (its log).
    public func stderrLog() throws -> String {
        try TouchstoneExecutable.readText(stderrPath)
    }

    /// Everything the server wrote to standard output so far.
    public func stdoutText() throws -> String {
        try TouchstoneExecutable.readText(stdoutPath)
    }

    /// Runs `touchstone admin …` on this server's database (`--database` is added).
    public func admin(_ arguments: [String]) async throws -> CommandResult {
        try await TouchstoneExecutable.run(["admin"] + arguments + ["--database", database], in: directory)
    }

    /// Asks the server to stop (SIGTERM) and waits; kills it when it does not stop within 20 s (it gives requests in
    /// flight 10 s, and a loaded machine some more to close).
    /// - Returns: the exit status.
    @discardableResult
    public func stop() async -> Int32 {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning, Date() < deadline {
                try? await Task.sleep(for: .milliseconds(20))
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends `signal` (e.g. `SIGTERM`) and returns at once.
    public func send(signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status once the process has exited, waiting up to `seconds`; `nil` while it still runs.
    public func exitStatus(within seconds: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `touchstone serving http://127.0.0.1:PORT (issuer ISSUER)`.
    private struct ReadyLine {
        let url: URL
        public let issuer: String

        init?(_ line: String) {
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 5, words[3] == "(issuer", words[4].hasSuffix(")"), let url = URL(string: words[2])
            else { return nil }
            self.url = url
            self.issuer = String(words[4].dropLast())
        }
    }
}

/// Runs `body` with a started server and a client for it; the server is stopped whatever happens.
/// - Parameter atLocalhost: serve at `http://localhost:PORT` as its issuer (``ServerProcess/startAtLocalhost(_:environment:)``)
///   rather than on port 0 with the default issuer.
public func withServer<T>(
    _ arguments: [String] = [], environment: [String: String] = [:], atLocalhost: Bool = false,
    _ body: (ServerProcess, WireClient) async throws -> T
) async throws -> T {
    let server =
        atLocalhost
        ? try await ServerProcess.startAtLocalhost(arguments, environment: environment)
        : try await ServerProcess.start(arguments, environment: environment)
    let client = WireClient(baseURL: server.baseURL)
    do {
        let result = try await body(server, client)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Runs `body` with two servers started one after the other (`argumentsA`, then `argumentsB`), as two instances of one
/// deployment; both are stopped whatever happens (`stop()` may be called again in `body`, e.g. to check the status).
public func withServers<T>(
    _ argumentsA: [String], _ argumentsB: [String], _ body: (ServerProcess, ServerProcess) async throws -> T
) async throws -> T {
    let a = try await ServerProcess.start(argumentsA)
    let b: ServerProcess
    do {
        b = try await ServerProcess.start(argumentsB)
    } catch {
        await a.stop()
        throw error
    }
    do {
        let result = try await body(a, b)
        await a.stop()
        await b.stop()
        return result
    } catch {
        await a.stop()
        await b.stop()
        throw error
    }
}
