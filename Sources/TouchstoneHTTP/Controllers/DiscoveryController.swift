import Hummingbird
import NIOCore
import TouchstoneDomain
import TouchstoneProtocol

/// What a client reads before anything else: health, the API description, the signing keys and an app's policy.
struct DiscoveryController {
    let environment: ServiceEnvironment
    let openAPI: String

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.health, use: health)
        routes.on(.openAPI, use: openAPIDocument)
        routes.on(.jwks, use: jwks)
        routes.on(.policy, use: policy)
        return routes
    }

    @Sendable func health(_ request: Request, context: TouchstoneRequestContext) throws -> Response {
        try Response.json(["status": "ok"])
    }

    @Sendable func openAPIDocument(_ request: Request, context: TouchstoneRequestContext) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(string: openAPI)))
    }

    @Sendable func jwks(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        var response = try Response.json(try await environment.signer.jwks())
        response.headers[.cacheControl] = "max-age=300"
        return response
    }

    @Sendable func policy(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try Response.json(try await environment.app(try context.parameters.require("clientId")).policy)
    }
}
