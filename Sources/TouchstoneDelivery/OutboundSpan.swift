import Foundation
import Tracing

/// The client span of one try of an outbound request (PROTOCOL "Traces"): a push to APNs or FCM, a CIBA ping, a
/// webhook. It is named `POST <kind>` and holds `touchstone.outbound` (the kind), `http.request.method`,
/// `server.address` and `server.port`, and `http.response.status_code` when the sender records the answer's
/// (``Span/recordAnswer(status:)``). A try that ran inside no span (the outboxes' senders) starts a trace of its own.
///
/// ⚠️ Never the URL's path or query, a header or the body: the path of an APNs push holds the device's token, a
/// client's notification endpoint may hold a secret in its query, and the headers hold bearer tokens and signatures.
///
/// Without `serve --otel-endpoint` the tracer is the no-op one.
package enum OutboundSpan {
    /// What is sent.
    package enum Kind: String, Sendable {
        case apns
        case fcm
        case ping
        case webhook
    }

    /// Runs `body`, one try of a POST to `url`, inside its span.
    package static func around<T>(_ kind: Kind, url: String, _ body: (any Span) async throws -> T) async rethrows -> T {
        let span = InstrumentationSystem.tracer.startSpan(
            "POST " + kind.rawValue, context: ServiceContext.current ?? .topLevel, ofKind: .client)
        defer { span.end() }
        span.attributes["touchstone.outbound"] = kind.rawValue
        span.attributes["http.request.method"] = "POST"
        if let components = URLComponents(string: url), let host = components.host {
            span.attributes["server.address"] = host
            span.attributes["server.port"] = components.port ?? (components.scheme?.lowercased() == "http" ? 80 : 443)
        }
        return try await ServiceContext.$current.withValue(span.context) { try await body(span) }
    }
}
