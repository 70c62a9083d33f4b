import HTTPTypes
import Hummingbird
import TouchstoneProtocol

/// Headers every answer carries. A route that sets its own Content-Security-Policy (the web page) keeps it; every
/// other answer gets `default-src 'none'; frame-ancestors 'none'`.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'"
        }
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
    static let permissionsPolicy = Self("Permissions-Policy")!
    package static let pollSecret = Self(TouchstoneHeader.pollSecret)!
    package static let deviceProof = Self(TouchstoneHeader.deviceProof)!
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let requestId = Self("X-Request-Id")!
}
