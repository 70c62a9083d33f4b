import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// The legacy auth0/TouchIDAuth routes, mounted only with `serve --touchidauth-compat`.
struct LegacyController {
    let legacy: LegacyService

    struct PublicKeyRegistration: Decodable {
        let user: String
        let key: String
        let password: String
    }

    struct Registered: Encodable {
        struct User: Encodable {
            let id: String
        }

        let user: User
    }

    struct LoginRequest: Decodable {
        let jwt: String
    }

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.legacyRegisterKey, use: registerKey)
        routes.on(.legacyLogin, use: login)
        return routes
    }

    @Sendable func registerKey(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(PublicKeyRegistration.self, context: context)
        let userId = try await legacy.register(
            username: body.user, key: body.key, password: body.password, ip: context.clientAddress)
        return try Response.json(Registered(user: .init(id: userId)))
    }

    @Sendable func login(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(LoginRequest.self, context: context)
        return Response.json(try await legacy.login(jwt: body.jwt, ip: context.clientAddress), noStore: true)
    }
}
