import Tracing

/// The span of one database transaction (PROTOCOL "Traces"): `db.transaction`, a child of the span that runs it (a
/// request's), with `db.system.name` (`sqlite` or `postgresql`) as its only attribute.
///
/// ⚠️ Never a statement, its values or an error's text: they hold tokens' digests, usernames and whatever a request
/// carried. A failed transaction is marked as an error, nothing more.
///
/// Work that runs outside any span (housekeeping, the outboxes' claims) records none: each of its loops would start a
/// trace of its own every few seconds. Without `serve --otel-endpoint` the tracer is the no-op one.
enum TransactionSpan {
    /// The database's name in OpenTelemetry's `db.system.name`.
    enum System: String, Sendable {
        case sqlite
        case postgresql
    }

    /// Runs `body` (one transaction) inside its span.
    static func around<T>(_ system: System, _ body: () async throws -> T) async throws -> T {
        guard let parent = ServiceContext.current else { return try await body() }
        let span = InstrumentationSystem.tracer.startSpan("db.transaction", context: parent, ofKind: .client)
        defer { span.end() }
        span.attributes["db.system.name"] = system.rawValue
        do {
            return try await ServiceContext.$current.withValue(span.context) { try await body() }
        } catch {
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }
}
