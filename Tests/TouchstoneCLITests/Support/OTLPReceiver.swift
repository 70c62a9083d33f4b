import Foundation
import TouchstoneTestSupport

/// An OpenTelemetry collector's stand-in: `Scripts/otlp_receiver.py`, which decodes OTLP/HTTP protobuf bodies with
/// opentelemetry-proto (installed by `scripts/test`) and records the spans. Give `serve --otel-endpoint` ``url``.
///
/// Use ``withOTLPReceiver(_:)``: it stops the script however the test ends (the script also ends when this process
/// does: its standard input closes).
final class OTLPReceiver {
    /// A span as the receiver decoded it.
    struct RecordedSpan: Decodable, Sendable, CustomStringConvertible {
        /// Lower-case hex.
        let traceId: String
        let spanId: String
        /// Empty for a root span.
        let parentSpanId: String
        let name: String
        /// `SERVER`, `CLIENT`, `INTERNAL`, …
        let kind: String
        let attributes: [String: AttributeValue]
        let events: [Event]
        /// `UNSET`, `OK` or `ERROR`.
        let status: String
        let statusMessage: String
        let resource: [String: AttributeValue]

        struct Event: Decodable, Sendable {
            let name: String
            let attributes: [String: AttributeValue]
        }

        var description: String { "\(kind) \(name) \(attributes)" }

        /// Every text the span carries: its name, its attributes' keys and values, its events', its status message.
        var texts: [String] {
            [name, statusMessage] + attributes.flatMap { [$0.key, $0.value.text] }
                + events.flatMap { event in [event.name] + event.attributes.flatMap { [$0.key, $0.value.text] } }
        }
    }

    /// An attribute's value: text or a number (booleans and lists do not occur in ours).
    enum AttributeValue: Decodable, Sendable, Equatable, CustomStringConvertible {
        case string(String)
        case int(Int)
        case other(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let int = try? container.decode(Int.self) {
                self = .int(int)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else {
                self = .other(String(describing: try? container.decode([String].self)))
            }
        }

        var text: String {
            switch self {
            case .string(let text), .other(let text): text
            case .int(let int): String(int)
            }
        }

        var description: String { text }
    }

    /// A request as the receiver got it.
    struct RecordedRequest: Decodable, Sendable {
        let method: String
        let path: String
        let contentType: String?
    }

    /// The script, run by ``ScriptServer``.
    private let script: ScriptServer

    /// `http://127.0.0.1:PORT`.
    var url: String { script.url }

    private init(script: ScriptServer) {
        self.script = script
    }

    /// Starts the script and waits for its listening line.
    static func start() async throws -> OTLPReceiver {
        OTLPReceiver(
            script: try await ScriptServer.start(
                script: "Tests/TouchstoneCLITests/Scripts/otlp_receiver.py", directory: try ScratchDirectory(),
                arguments: [], readyPrefix: "otlp-receiver listening "))
    }

    /// Every request received so far, in order.
    func requests() throws -> [RecordedRequest] {
        try script.recorded(as: RecordedRequest.self)
    }

    /// Every span received so far, in the order they came.
    func spans() throws -> [RecordedSpan] {
        let text = (try? String(contentsOfFile: script.directory.path("spans.jsonl"), encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { try JSONDecoder().decode(RecordedSpan.self, from: Data($0.utf8)) }
    }

    /// The spans received so far once one satisfies `condition`, waiting up to `seconds`.
    /// - Throws: ``NotReceived`` when none comes in time.
    func spans(until condition: (RecordedSpan) -> Bool, within seconds: Double = 30) async throws -> [RecordedSpan] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let spans = try spans()
            if spans.contains(where: condition) { return spans }
            guard Date() < deadline else { throw NotReceived(received: spans) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The span a test waited for did not come.
    struct NotReceived: Error, CustomStringConvertible {
        let received: [RecordedSpan]
        var description: String { "the span did not come; received \(received.count): \(received)" }
    }

    /// Stops the script and waits for it.
    func stop() async {
        await script.stop()
    }
}

/// Runs `body` with a started ``OTLPReceiver``, stopped whatever happens.
func withOTLPReceiver<T>(_ body: (OTLPReceiver) async throws -> T) async throws -> T {
    let receiver = try await OTLPReceiver.start()
    do {
        let result = try await body(receiver)
        await receiver.stop()
        return result
    } catch {
        await receiver.stop()
        throw error
    }
}
