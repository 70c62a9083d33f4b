import Foundation
import Logging

/// `LOG_FORMAT=json`: one JSON object per line on standard error — `time`, `level`, `label`, `message`, `source` and
/// every metadata value (`request_id` while a request is served) — for log collectors.
struct JSONLogHandler: LogHandler {
    let label: String
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var object: [String: String] = [:]
        let all = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in all {
            object[key] = "\(value)"
        }
        object["time"] = Date().formatted(.iso8601)
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = "\(event.message)"
        object["source"] = event.source
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(line)
    }
}
