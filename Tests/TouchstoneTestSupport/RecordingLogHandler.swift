import Logging
import Synchronization

/// Keeps every line logged through it (`LEVEL message metadata`), for tests of what is logged and what never is.
public struct RecordingLogHandler: LogHandler {
    /// The lines, shared by the copies of the handler a logger makes.
    public final class Lines: Sendable {
        private let lines = Mutex<[String]>([])

        public init() {}

        public var all: [String] { lines.withLock { $0 } }

        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    let lines: Lines
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(lines: Lines) {
        self.lines = lines
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        lines.append("\(event.level) \(event.message) \(metadata.merging(event.metadata ?? [:]) { $1 })")
    }
}
