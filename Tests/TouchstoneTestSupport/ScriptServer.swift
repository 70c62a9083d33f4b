import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stand-in server written in Python for the tests (`python3 SCRIPT DIR …`): ready once it prints its listening
/// line, recording what it receives as JSON lines in `DIR/requests.jsonl`, and stopped when its standard input closes
/// (so also when this process ends). ``PushTestServer`` and ``WebhookReceiver`` are two.
public final class ScriptServer {
    /// What follows the listening line's prefix: the server's URL.
    public let url: String
    /// The script's working directory, its first argument.
    public let directory: ScratchDirectory
    private let name: String
    private let process: Process
    private let input: Pipe

    private init(url: String, directory: ScratchDirectory, name: String, process: Process, input: Pipe) {
        self.url = url
        self.directory = directory
        self.name = name
        self.process = process
        self.input = input
    }

    /// Starts `python3 script directory arguments…` and waits for its line starting with `readyPrefix`.
    /// - Parameter script: the script's path in the package.
    public static func start(
        script: String, directory: ScratchDirectory, arguments: [String], readyPrefix: String
    ) async throws -> ScriptServer {
        let name = URL(fileURLWithPath: script).lastPathComponent
        let stdoutPath = directory.path(name + ".out")
        let stderrPath = directory.path(name + ".err")
        guard FileManager.default.createFile(atPath: stdoutPath, contents: nil),
            FileManager.default.createFile(atPath: stderrPath, contents: nil)
        else { throw CocoaError(.fileWriteUnknown) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", TouchstoneExecutable.packageRoot.appendingPathComponent(script).path, directory.url.path]
            + arguments
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        try ProcessLaunch.run(process)
        let deadline = Date().addingTimeInterval(60)
        while true {
            let output = try TouchstoneExecutable.readText(stdoutPath)
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix(readyPrefix) }) {
                return ScriptServer(
                    url: String(line.dropFirst(readyPrefix.count)), directory: directory, name: name, process: process,
                    input: input)
            }
            guard process.isRunning, Date() < deadline else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw ServerProcess.StartFailure(
                    description: "\(name) did not start:\n\(output)\n\(try TouchstoneExecutable.readText(stderrPath))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Every request recorded so far, in order.
    public func recorded<Request: Decodable>(as type: Request.Type) throws -> [Request] {
        let text = (try? String(contentsOfFile: directory.path("requests.jsonl"), encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    /// The recorded requests that `matching` keeps, once there are at least `count`, waiting up to `seconds`.
    /// - Throws: ``NotReceived`` when they do not come in time.
    public func requests<Request: Decodable & Sendable>(
        atLeast count: Int, as type: Request.Type, within seconds: Double, matching: (Request) -> Bool
    ) async throws -> [Request] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let requests = try recorded(as: Request.self).filter(matching)
            if requests.count >= count { return requests }
            guard Date() < deadline else { throw NotReceived(expected: count, received: requests) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Fewer requests came than a test waited for.
    public struct NotReceived<Request: Sendable>: Error, CustomStringConvertible {
        public let expected: Int
        public let received: [Request]
        public var description: String { "expected \(expected) requests, received \(received.count): \(received)" }
    }

    /// Stops the script and waits for it.
    public func stop() async {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
