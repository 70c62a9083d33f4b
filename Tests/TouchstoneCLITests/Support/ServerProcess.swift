import Foundation

/// A `touchstone serve` process on a free loopback port, with its own database in a scratch directory.
///
/// Use ``withServer(_:environment:_:)``: it stops the process however the test ends.
final class ServerProcess {
    /// Where the server listens, `http://127.0.0.1:PORT`.
    let baseURL: URL
    /// The server's ISSUER (default `http://localhost:8080`: the `aud` of device tokens).
    let issuer: String
    let directory: ScratchDirectory
    /// The SQLite file the server and the admin commands share.
    let database: String
    private let process: Process
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
    static func start(_ arguments: [String] = [], environment: [String: String] = [:]) async throws -> ServerProcess {
        let directory = try ScratchDirectory()
        let database = directory.path("touchstone.sqlite")
        let stdoutPath = directory.path("serve.out")
        let stderrPath = directory.path("serve.err")
        let process = try TouchstoneExecutable.launch(
            ["serve", "--port", "0", "--database", database] + arguments, in: directory, environment: environment,
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

    /// Everything the server wrote to standard error so far (its log).
    func stderrLog() throws -> String {
        try TouchstoneExecutable.readText(stderrPath)
    }

    /// Everything the server wrote to standard output so far.
    func stdoutText() throws -> String {
        try TouchstoneExecutable.readText(stdoutPath)
    }

    /// Runs `touchstone admin …` on this server's database (`--database` is added).
    func admin(_ arguments: [String]) async throws -> CommandResult {
        try await TouchstoneExecutable.run(["admin"] + arguments + ["--database", database], in: directory)
    }

    /// Asks the server to stop (SIGTERM) and waits; kills it when it does not stop within 10 s.
    /// - Returns: the exit status.
    @discardableResult
    func stop() async -> Int32 {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
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

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `touchstone serving http://127.0.0.1:PORT (issuer ISSUER)`.
    private struct ReadyLine {
        let url: URL
        let issuer: String

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
func withServer<T>(
    _ arguments: [String] = [], environment: [String: String] = [:],
    _ body: (ServerProcess, WireClient) async throws -> T
) async throws -> T {
    let server = try await ServerProcess.start(arguments, environment: environment)
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
