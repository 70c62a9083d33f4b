import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// Limits the unauthenticated endpoints that make the server store something (PROTOCOL.md "Operations") per client
/// address: 429 with `Retry-After` beyond the limit, `too_many_attempts` on v1 and `temporarily_unavailable` at PAR.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = TouchstoneRequestContext

    let limiter: RateLimiter

    /// The endpoints limited, each counted on its own. `/oauth2/authorize` keeps a sign-in request for an anonymous
    /// caller too, so it is limited beside those the contract lists.
    static let limited: [Endpoint] = [
        .createAccount, .challenge, .startEnrollment, .startWebLogin, .passkeyAuthenticationOptions, .oauthPushedRequest,
        .oauthAuthorize,
    ]

    /// ``limited`` with each template's non-empty segments, split once.
    private static let matches = limited.map { (endpoint: $0, segments: $0.template.split(separator: "/")) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard limiter.isOn else { return try await next(request, context) }
        // The router skips empty path segments (`/v1/accounts/`, `//v1/accounts`): so does the match.
        let segments = request.uri.path.split(separator: "/")
        let method = request.method.rawValue
        guard
            let endpoint = Self.matches.first(where: { $0.endpoint.method == method && $0.segments == segments })?.endpoint
        else { return try await next(request, context) }
        do {
            try await limiter.admit(endpoint: endpoint.description, address: context.clientAddress)
        } catch let refusal as ProblemError where endpoint == .oauthPushedRequest {
            var response = try OAuthError(.temporarilyUnavailable, refusal.detail ?? "too many requests").response(
                status: .tooManyRequests)
            response.headers[.retryAfter] = refusal.retryAfter.map(String.init)
            return response
        }
        return try await next(request, context)
    }
}
