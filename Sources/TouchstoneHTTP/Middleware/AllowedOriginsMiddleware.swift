import HTTPTypes
import Hummingbird

/// CORS for the configured web origins only: their requests get `Access-Control-Allow-Origin`, and their preflights
/// an answer; any other origin gets no CORS header, so browsers keep its pages from reading our answers.
///
/// No credentials mode: the page sends its tokens in `Authorization`, never in cookies.
struct AllowedOriginsMiddleware<Context: RequestContext>: RouterMiddleware {
    package let origins: Set<String>

    static var allowedMethods: String { "GET, POST, PUT, DELETE" }
    static var allowedHeaders: String { "authorization, content-type, x-poll-secret" }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let origin = request.headers[.origin], origins.contains(origin) else {
            return try await next(request, context)
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: origin, .vary: "Origin",
                    .accessControlAllowMethods: Self.allowedMethods, .accessControlAllowHeaders: Self.allowedHeaders,
                    .accessControlMaxAge: "600",
                ])
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlExposeHeaders] = "Retry-After"
        response.headers[.vary] = "Origin"
        return response
    }

    package init(origins: Set<String>) {
        self.origins = origins
    }
}
