import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// Limits the unauthenticated endpoints that make the server store something (PROTOCOL.md "Operations") per client
/// address: 429 with `Retry-After` beyond the limit, `too_many_attempts` on v1 and `temporarily_unavailable` at PAR.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = TouchstoneRequestContext

    let limiter: RateLimiter

    /// The endpoints limited, each counted on its own.
    static let limited: [Endpoint] = [
        .createAccount, .challenge, .startEnrollment, .startWebLogin, .passkeyAuthenticationOptions, .oauthPushedRequest,
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard
            let endpoint = Self.limited.first(where: {
                $0.method == request.method.rawValue && $0.template == request.uri.path
            })
        else { return try await next(request, context) }
        do {
            try await limiter.admit(endpoint: endpoint.description, address: context.clientAddress)
        } catch let refusal as ProblemError where endpoint == .oauthPushedRequest {
            var response = try OAuthError(.temporarilyUnavailable, refusal.detail ?? "too many requests").response()
            response.headers[.retryAfter] = refusal.retryAfter.map(String.init)
            return response
        }
        return try await next(request, context)
    }
}
