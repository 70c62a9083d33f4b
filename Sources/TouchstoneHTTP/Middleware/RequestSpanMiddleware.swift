import HTTPTypes
import Hummingbird
import Tracing

/// A server span per request (PROTOCOL "Traces"), the child of the request's W3C `traceparent` when it has one, and
/// the parent of the spans of the work it does (database transactions). It is named `METHOD /route/{pattern}` after
/// the route that answered, as the router spells it, or `METHOD` alone when none matched, and holds exactly
/// `http.request.method`, `http.route` (for a matched route), `http.response.status_code`, `url.scheme` and
/// `url.path`.
///
/// ⚠️ Never the query, a header or a body: they carry codes, tokens and usernames (Hummingbird's `TracingMiddleware`
/// records the query, the user agent and the client's address, so it is not used).
///
/// Without `serve --otel-endpoint` the tracer is swift-distributed-tracing's no-op one: the span is never recorded.
struct RequestSpanMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var parent = ServiceContext.current ?? .topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        let known = standardMethods.contains(request.method)
        let method = known ? request.method.rawValue : "_OTHER"
        let name = known ? method : "HTTP"
        let span = InstrumentationSystem.tracer.startSpan(name, context: parent, ofKind: .server)
        defer { span.end() }
        span.attributes["http.request.method"] = method
        // This server speaks plain HTTP; TLS, when there is any, ends at a proxy before it.
        span.attributes["url.scheme"] = "http"
        span.attributes["url.path"] = request.uri.path
        do {
            let response = try await ServiceContext.$current.withValue(span.context) { try await next(request, context) }
            finish(span, name: name, context: context, status: response.status)
            return response
        } catch {
            finish(
                span, name: name, context: context, status: (error as? any HTTPResponseError)?.status ?? .internalServerError)
            throw error
        }
    }

    /// Names the span after the route that answered and records the answer's status: an error for a 5xx only (a 4xx
    /// is the client's), without the error itself, whose text may hold what the request carried.
    private func finish(_ span: any Span, name: String, context: Context, status: HTTPResponse.Status) {
        // Hummingbird names the path of a request no route matched "NotFound"; a route's pattern starts with "/".
        if let route = context.endpointPath, route.hasPrefix("/") {
            span.operationName = name + " " + route
            span.attributes["http.route"] = route
        }
        span.attributes["http.response.status_code"] = status.code
        if status.kind == .serverError {
            span.setStatus(SpanStatus(code: .error))
        }
    }
}

/// The methods HTTP defines; any other token is `_OTHER`, and its span is named `HTTP` (OpenTelemetry's HTTP semantic
/// conventions), so that a client cannot name spans.
private let standardMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .connect, .options, .trace, .patch]

/// Reads the W3C trace context's headers (`traceparent`, `tracestate`) of a request for the tracer's propagator.
private struct HeaderExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { carrier[$0] }
    }
}
