import Foundation

/// What one finished run of `touchstone` left behind.
struct CommandResult: Sendable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Whether the run had to be stopped because it did not end in time.
    var timedOut: Bool

    /// The non-empty lines of standard output.
    var stdoutLines: [String] {
        stdout.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The non-empty lines of standard error.
    var stderrLines: [String] {
        stderr.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Decodes standard output as one JSON value.
    func json<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder.wire.decode(type, from: Data(stdout.utf8))
    }

    var description: String {
        "exit \(status)\(timedOut ? " (timed out)" : "")\nstdout:\n\(stdout)\nstderr:\n\(stderr)"
    }
}
