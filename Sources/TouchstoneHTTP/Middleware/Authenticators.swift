import Hummingbird
import TouchstoneDomain

/// `Authorization: Bearer`: puts the caller's identity into the context, or refuses the request (401). A device
/// session's token also needs its device's proof of this request (`Touchstone-Device-Proof`).
struct BearerAuthenticator: RouterMiddleware {
    typealias Context = TouchstoneRequestContext

    let sessions: SessionService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let token = request.authorization(scheme: "Bearer") else { throw ProblemError.unauthorized }
        var context = context
        context.identity = try await sessions.authenticate(
            bearer: token, deviceProof: request.headers[.deviceProof], method: request.method.rawValue,
            path: request.uri.path)
        return try await next(request, context)
    }
}

/// `Authorization: ApiKey`: puts the key's app into the context, or refuses the request (401).
struct APIKeyAuthenticator: RouterMiddleware {
    typealias Context = TouchstoneRequestContext

    let environment: ServiceEnvironment

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        context.app = try await environment.authenticateApp(apiKey: request.authorization(scheme: "ApiKey"))
        var metadata = RequestMetadata.current
        metadata?.actor = .apiKey
        return try await RequestMetadata.$current.withValue(metadata) { try await next(request, context) }
    }
}

/// `Authorization: TouchstoneDevice`: puts the device of the route's `{deviceId}` into the context when it signed
/// this very request, or refuses the request (401 `device_proof_required` / `invalid_device_proof`).
struct DeviceAuthenticator: RouterMiddleware {
    typealias Context = TouchstoneRequestContext

    let sessions: SessionService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        context.device = try await sessions.authenticateDevice(
            request.authorization(scheme: "TouchstoneDevice"), deviceId: try context.parameters.require("deviceId"),
            method: request.method.rawValue, path: request.uri.path)
        return try await next(request, context)
    }
}
