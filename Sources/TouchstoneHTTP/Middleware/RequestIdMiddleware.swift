import HTTPTypes
import Hummingbird
import TouchstoneDomain
import TouchstoneCrypto
import TouchstoneProtocol

/// Names every request: its own `X-Request-Id` when that is 1–64 characters of `[A-Za-z0-9._-]`, a new one otherwise.
/// The answer carries it back; while the request is served it is the ``RequestMetadata`` that log lines and audit
/// events read, with the user agent.
struct RequestIdMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let requestId = request.headers[.requestId].flatMap { Self.isAcceptable($0) ? $0 : nil } ?? SecretDigest.randomToken(bytes: 12)
        let metadata = RequestMetadata(requestId: requestId, userAgent: request.headers[.userAgent])
        var response = try await RequestMetadata.$current.withValue(metadata) { try await next(request, context) }
        response.headers[.requestId] = requestId
        return response
    }

    static func isAcceptable(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~") }
    }
}
