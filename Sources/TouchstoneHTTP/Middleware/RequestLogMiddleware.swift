import Hummingbird

/// Logs each request's method and path at debug level, and its answer's status. Never the query or the headers:
/// they carry tokens (`id_token_hint`), codes and usernames.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let response = try await next(request, context)
        context.logger.debug(
            "request",
            metadata: [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                "status": .stringConvertible(response.status.code),
            ])
        return response
    }
}
