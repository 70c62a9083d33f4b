import Metrics
import Hummingbird

/// Counts and times every request (PROTOCOL "Operations"): `touchstone_http_requests_total{route,method,status}` and
/// `touchstone_http_request_duration_seconds{route,method}`. `route` is the pattern of the route that answered, as the
/// router spells it (`/v1/devices/{deviceId}`), or `unmatched`: never the path itself, which would give every id its
/// own series.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let factory: any MetricsFactory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let status: HTTPResponse.Status
        do {
            let response = try await next(request, context)
            status = response.status
            record(request, context: context, status: status, since: start)
            return response
        } catch {
            record(request, context: context, status: (error as? any HTTPResponseError)?.status ?? .internalServerError, since: start)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: HTTPResponse.Status, since start: ContinuousClock.Instant) {
        // Hummingbird names the path of a request no route matched "NotFound"; a route's pattern starts with "/".
        let route = context.endpointPath.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "unmatched"
        let method = request.method.rawValue
        Counter(
            label: "touchstone_http_requests_total",
            dimensions: [("route", route), ("method", method), ("status", String(status.code))], factory: factory
        ).increment()
        Timer(label: "touchstone_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            .record(duration: ContinuousClock.now - start)
    }
}
