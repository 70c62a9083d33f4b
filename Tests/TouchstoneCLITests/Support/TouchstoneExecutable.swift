import Foundation

/// The `touchstone` executable under test: `TOUCHSTONE_BIN`, or `.build/debug/touchstone` of this package.
enum TouchstoneExecutable {
    static var url: URL {
        if let path = ProcessInfo.processInfo.environment["TOUCHSTONE_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // <root>/Tests/TouchstoneCLITests/Support/TouchstoneExecutable.swift
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/touchstone")
    }

    /// Runs `touchstone` with `arguments` to its end, in `directory`, with output collected in files there.
    /// - Parameter timeout: seconds after which the process is killed and the result marked `timedOut`.
    static func run(
        _ arguments: [String], in directory: ScratchDirectory, environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) async throws -> CommandResult {
        let name = "run-\(UUID().uuidString.lowercased())"
        let stdoutPath = directory.path(name + ".out")
        let stderrPath = directory.path(name + ".err")
        let process = try launch(
            arguments, in: directory, environment: environment, stdoutPath: stdoutPath, stderrPath: stderrPath)
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
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
    static func launch(
        _ arguments: [String], in directory: ScratchDirectory, environment: [String: String], stdoutPath: String,
        stderrPath: String
    ) throws -> Process {
        guard FileManager.default.createFile(atPath: stdoutPath, contents: nil),
            FileManager.default.createFile(atPath: stderrPath, contents: nil)
        else { throw CocoaError(.fileWriteUnknown) }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory.url
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try ProcessLaunch.run(process)
        return process
    }

    static func readText(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }
}
