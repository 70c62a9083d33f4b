import Foundation
import TouchstoneTestSupport

/// A `touchstone` run that is still going (a registration waiting for approval), whose standard error can be read
/// meanwhile, as its user reads the screen.
final class RunningCommand {
    private let process: Process
    private let stdoutPath: String
    private let stderrPath: String

    /// Starts `touchstone ARGUMENTS` in `directory`, with `input` as standard input.
    init(_ arguments: [String], input: String, in directory: ScratchDirectory) throws {
        let name = "run-\(UUID().uuidString.lowercased())"
        let stdinPath = directory.path(name + ".in")
        guard FileManager.default.createFile(atPath: stdinPath, contents: Data(input.utf8)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        stdoutPath = directory.path(name + ".out")
        stderrPath = directory.path(name + ".err")
        process = try TouchstoneExecutable.launch(
            arguments, in: directory, environment: [:], stdinPath: stdinPath, stdoutPath: stdoutPath,
            stderrPath: stderrPath)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Standard error so far.
    var stderr: String { (try? TouchstoneExecutable.readText(stderrPath)) ?? "" }

    /// The first line of standard error that contains `text`, once it is written; `nil` if the run ends, or
    /// `timeout` seconds pass, without one.
    func stderrLine(containing text: String, timeout: TimeInterval = 90) async throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let running = process.isRunning
            if let line = stderr.split(whereSeparator: \.isNewline).first(where: { $0.contains(text) }) {
                return String(line)
            }
            if !running { return nil }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Waits for the end of the run; after `timeout` seconds it is stopped and the result marked `timedOut`.
    func finish(timeout: TimeInterval = 90) async throws -> CommandResult {
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: try TouchstoneExecutable.readText(stdoutPath),
            stderr: try TouchstoneExecutable.readText(stderrPath), timedOut: timedOut)
    }
}
