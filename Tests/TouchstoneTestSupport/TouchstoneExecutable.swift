import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `touchstone` executable under test: `TOUCHSTONE_BIN`, or `.build/debug/touchstone` of this package.
public enum TouchstoneExecutable {
    public static var url: URL {
        if let path = ProcessInfo.processInfo.environment["TOUCHSTONE_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.appendingPathComponent(".build/debug/touchstone")
    }

    /// The package's root folder, found from this file's path (`<root>/Tests/TouchstoneTestSupport/…`).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Runs `touchstone` (or another `executable`) with `arguments` to its end, in `directory`, with output collected
    /// in files there.
    /// - Parameters:
    ///   - input: standard input (empty when `nil`).
    ///   - timeout: seconds after which the process is killed and the result marked `timedOut`.
    public static func run(
        _ arguments: [String], executable: URL = url, input: String? = nil, in directory: ScratchDirectory,
        environment: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> CommandResult {
        let name = "run-\(UUID().uuidString.lowercased())"
        let stdinPath = directory.path(name + ".in")
        let stdoutPath = directory.path(name + ".out")
        let stderrPath = directory.path(name + ".err")
        guard FileManager.default.createFile(atPath: stdinPath, contents: Data((input ?? "").utf8)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let process = try launch(
            executable, arguments, in: directory, environment: environment, stdinPath: stdinPath, stdoutPath: stdoutPath,
            stderrPath: stderrPath)
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: try readText(stdoutPath), stderr: try readText(stderrPath),
            timedOut: timedOut)
    }

    /// Starts `touchstone` with its standard output and error going to files.
    /// - Parameter stdinPath: a file to read standard input from; none when `nil`.
    public static func launch(
        _ arguments: [String], in directory: ScratchDirectory, environment: [String: String],
        stdinPath: String? = nil, stdoutPath: String, stderrPath: String
    ) throws -> Process {
        try launch(
            url, arguments, in: directory, environment: environment, stdinPath: stdinPath, stdoutPath: stdoutPath,
            stderrPath: stderrPath)
    }

    /// Starts any `executable` the same way (one launch at a time, output to files).
    public static func launch(
        _ executable: URL, _ arguments: [String], in directory: ScratchDirectory, environment: [String: String],
        stdinPath: String? = nil, stdoutPath: String, stderrPath: String
    ) throws -> Process {
        guard FileManager.default.createFile(atPath: stdoutPath, contents: nil),
            FileManager.default.createFile(atPath: stderrPath, contents: nil)
        else { throw CocoaError(.fileWriteUnknown) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory.url
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput =
            try stdinPath.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try ProcessLaunch.run(process)
        return process
    }

    public static func readText(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }
}
