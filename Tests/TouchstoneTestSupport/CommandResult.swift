import Foundation

/// What one finished run of `touchstone` left behind.
public struct CommandResult: Sendable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Whether the run had to be stopped because it did not end in time.
    public var timedOut: Bool

    public init(status: Int32, stdout: String, stderr: String, timedOut: Bool) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.timedOut = timedOut
    }

    /// The non-empty lines of standard output.
    public var stdoutLines: [String] {
        stdout.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The non-empty lines of standard error.
    public var stderrLines: [String] {
        stderr.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Decodes standard output as one JSON value.
    public func json<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder.wire.decode(type, from: Data(stdout.utf8))
    }

    public var description: String {
        "exit \(status)\(timedOut ? " (timed out)" : "")\nstdout:\n\(stdout)\nstderr:\n\(stderr)"
    }
}
