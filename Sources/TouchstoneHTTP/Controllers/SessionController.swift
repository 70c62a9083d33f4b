import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// Sessions: a login challenge, the device's signed login, refresh, logout, the user's list of sessions and ending one
/// of them, and introspection for relying services.
struct SessionController {
    let services: Services

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.challenge, use: challenge)
        routes.on(.login, use: login)
        routes.on(.refresh, use: refresh)
        routes.group()
            .add(middleware: BearerAuthenticator(sessions: services.sessions))
            .on(.logout, use: logout)
            .on(.sessions, use: list)
            .on(.endSession, use: endSession)
        routes.group()
            .add(middleware: APIKeyAuthenticator(environment: services.environment))
            .on(.introspect, use: introspect)
        return routes
    }

    @Sendable func challenge(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(ChallengeRequest.self, context: context)
        let challenge = try await services.logins.challenge(body, ip: context.clientAddress)
        return Response.json(challenge, status: .created, noStore: true)
    }

    @Sendable func login(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(AssertionLoginRequest.self, context: context)
        let session = try await services.logins.login(body, ip: context.clientAddress)
        return Response.json(session, status: .created, noStore: true)
    }

    /// The device's `TouchstoneDevice` proof is checked by the service, once the refresh token names the session's
    /// device: a reused refresh token must end its session whatever proof comes with it.
    @Sendable func refresh(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(RefreshRequest.self, context: context)
        let session = try await services.sessions.refresh(
            refreshToken: body.refreshToken, deviceProof: request.authorization(scheme: "TouchstoneDevice"),
            method: request.method.rawValue, path: request.uri.path, ip: context.clientAddress)
        return Response.json(session, noStore: true)
    }

    @Sendable func logout(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await services.sessions.end(try context.requireIdentity())
        return Response(status: .noContent)
    }

    @Sendable func list(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try Response.json(try await services.sessions.list(try context.requireIdentity()), noStore: true)
    }

    @Sendable func endSession(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await services.sessions.end(
            try context.parameters.require("sessionId"), by: try context.requireIdentity(), ip: context.clientAddress)
        return Response(status: .noContent)
    }

    @Sendable func introspect(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let caller = try context.requireApp()
        let body = try await request.decodeBody(IntrospectionRequest.self, context: context)
        return try Response.json(try await services.introspection.introspect(body.token, for: caller), noStore: true)
    }
}
