import Foundation
import Logging

/// The CLI's log lines on standard error, one per event: in text by default, or with `LOG_FORMAT=json` one JSON object
/// per line (`time`, `level`, `label`, `message`, `source` and every metadata value, `request_id` while a request is
/// served) for log collectors.
///
/// Metadata is formatted when a line is written, never when it is set: Hummingbird sets each request's logger metadata,
/// and at the default level most requests write no line at all.
struct LineLogHandler: LogHandler {
    enum Format {
        case text, json
    }

    let label: String
    let format: Format
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let values = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        let time = Date().formatted(.iso8601)
        var line: Data
        switch format {
        case .text:
            let pairs = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            line = Data("\(time) \(event.level) \(label) :\(pairs.isEmpty ? "" : " " + pairs) [\(event.source)] \(event.message)".utf8)
        case .json:
            var object = values.mapValues { "\($0)" }
            object["time"] = time
            object["level"] = event.level.rawValue
            object["label"] = label
            object["message"] = "\(event.message)"
            object["source"] = event.source
            guard let json = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return }
            line = json
        }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(line)
    }
}
