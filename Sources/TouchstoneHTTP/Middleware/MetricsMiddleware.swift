import Hummingbird
import Metrics
import Synchronization

/// Counts and times every request (PROTOCOL "Operations"): `touchstone_http_requests_total{route,method,status}` and
/// `touchstone_http_request_duration_seconds{route,method}`. `route` is the pattern of the route that answered, as the
/// router spells it (`/v1/devices/{deviceId}`), or `unmatched`: never the path itself, which would give every id its
/// own series. `method` is the request's method when HTTP defines it, `other` for any other token a client sends.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let instruments: RequestInstruments

    init(factory: any MetricsFactory) {
        instruments = RequestInstruments(factory: factory)
    }

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
        let method = RequestInstruments.standardMethods.contains(request.method) ? request.method.rawValue : "other"
        let (requests, duration) = instruments.for(route: route, method: method, status: status.code)
        requests.increment()
        duration.record(duration: ContinuousClock.now - start)
    }
}

/// The counter and timer of each route, method and status, made once: making them through the factory on every
/// request took the registry's lock and built their labels each time. There are as many as the router has routes,
/// times the standard methods, times the statuses it answers with.
private final class RequestInstruments: Sendable {
    static let standardMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .connect, .options, .trace, .patch]

    private struct Key: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private let factory: any MetricsFactory
    private let made: Mutex<[Key: (Counter, Timer)]> = Mutex([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func `for`(route: String, method: String, status: Int) -> (requests: Counter, duration: Timer) {
        let key = Key(route: route, method: method, status: status)
        if let instruments = made.withLock({ $0[key] }) { return instruments }
        let instruments = (
            Counter(label: "touchstone_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory),
            Timer(label: "touchstone_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
        )
        made.withLock { $0[key] = instruments }
        return instruments
    }
}
