import Logging
import Synchronization

/// A log handler that keeps every line, message and metadata, at every level.
final class CapturingLogHandler: LogHandler {
    private struct State {
        var lines: [String] = []
        var metadata: Logger.Metadata = [:]
        var level: Logger.Level = .trace
        var provider: Logger.MetadataProvider?
    }

    private let state = Mutex(State())

    var metadata: Logger.Metadata {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }

    /// Kept and used as a real handler does, so that task-local metadata (the request id) shows in the lines.
    var metadataProvider: Logger.MetadataProvider? {
        get { state.withLock { $0.provider } }
        set { state.withLock { $0.provider = newValue } }
    }

    var logLevel: Logger.Level {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = newValue } }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    var lines: [String] { state.withLock { $0.lines } }

    func log(event: LogEvent) {
        let provided = metadataProvider?.get() ?? [:]
        state.withLock { state in
            let all = state.metadata.merging(provided) { $1 }.merging(event.metadata ?? [:]) { $1 }
            state.lines.append("\(event.level) \(event.message) \(all) \(event.source)")
        }
    }

    func makeLogger() -> Logger {
        Logger(label: "capture") { _ in self }
    }
}
