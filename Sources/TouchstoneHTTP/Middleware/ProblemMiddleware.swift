import Hummingbird
import Logging
import TouchstoneDomain
import TouchstoneProtocol

/// Turns every error into `application/problem+json`; anything unexpected is logged and answered 503 without detail.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let problem as ProblemError {
            return try problem.response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            return try Problem.from(httpStatus: error.status).response()
        } catch {
            context.logger.error(
                "request failed", metadata: ["path": .string(request.uri.path), "error": .string("\(error)")])
            return try Problem.from(httpStatus: .serviceUnavailable).response()
        }
    }
}
