import Foundation
import Logging

/// The server's and the CLI's log lines, one per event: in text by default, or one JSON object per line (`time`,
/// `level`, `label`, `message`, `source` and every metadata value, `request_id` while a request is served) for log
/// collectors.
///
/// Every value is escaped with ``LogEscaping`` as the line is written, whatever the call site logged: no event writes
/// more than one line, and no value a client sent can pass for a line or an escape of its own.
///
/// Metadata is formatted when a line is written, never when it is set: Hummingbird sets each request's logger metadata,
/// and at the default level most requests write no line at all.
public struct LineLogHandler: LogHandler {
    public enum Format: Sendable {
        /// `time level label : key=value … [source] message`, the keys sorted.
        case text
        /// One JSON object of strings, the keys sorted.
        case json
    }

    public let label: String
    public let format: Format
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let write: @Sendable (Data) -> Void

    /// - Parameter write: where each line goes, its `\n` included; standard error unless given.
    public init(label: String, format: Format, write: @escaping @Sendable (Data) -> Void = LineLogHandler.standardError) {
        self.label = label
        self.format = format
        self.write = write
    }

    /// Writes `line` to standard error.
    public static func standardError(_ line: Data) {
        FileHandle.standardError.write(line)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let values = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        let time = Date().formatted(.iso8601)
        let line: String
        switch format {
        case .text:
            let pairs = values.sorted { $0.key < $1.key }
                .map { " \(LogEscaping.text($0.key))=\(LogEscaping.text("\($0.value)"))" }.joined()
            line = "\(time) \(event.level) \(LogEscaping.text(label)) :\(pairs)"
                + " [\(LogEscaping.text(event.source))] \(LogEscaping.text("\(event.message)"))"
        case .json:
            var object = values.mapValues { "\($0)" }
            object["time"] = time
            object["level"] = event.level.rawValue
            object["label"] = label
            object["message"] = "\(event.message)"
            object["source"] = event.source
            line = "{" + object.sorted { $0.key < $1.key }
                .map { "\(LogEscaping.json($0.key)):\(LogEscaping.json($0.value))" }.joined(separator: ",") + "}"
        }
        write(Data((line + "\n").utf8))
    }
}
