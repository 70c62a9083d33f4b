import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// "Approve this web login on your phone": the browser starts and polls, the device decides.
struct WebLoginController {
    let webLogins: WebLoginService

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.startWebLogin, use: start)
        routes.on(.pollWebLogin, use: poll)
        routes.on(.decideWebLogin, use: decide)
        return routes
    }

    @Sendable func start(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(WebLoginRequest.self, context: context)
        let started = try await webLogins.start(
            body, browser: request.headers[.userAgent] ?? "unknown browser", ip: context.clientAddress)
        return try Response.json(started, status: .created, noStore: true)
    }

    @Sendable func poll(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let poll = try await webLogins.poll(
            try context.parameters.require("webLoginId"), pollSecret: request.headers[.pollSecret],
            ip: context.clientAddress)
        return try Response.json(poll, noStore: true)
    }

    @Sendable func decide(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(DecisionRequest.self, context: context)
        return try Response.json(
            try await webLogins.decide(
                try context.parameters.require("webLoginId"), assertion: body.assertion, ip: context.clientAddress))
    }
}
