import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// Transaction confirmations: a relying service asks (API key), the user's device decides.
struct ConfirmationController {
    let services: Services

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.decideConfirmation, use: decide)
        routes.group()
            .add(middleware: APIKeyAuthenticator(environment: services.environment))
            .on(.createConfirmation, use: create)
            .on(.confirmation, use: state)
        return routes
    }

    @Sendable func create(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let app = try context.requireApp()
        let body = try await request.decodeBody(ConfirmationRequest.self, context: context)
        let created = try await services.confirmations.create(body, by: app, ip: context.clientAddress)
        return try Response.json(created, status: .created, noStore: true)
    }

    @Sendable func state(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let state = try await services.confirmations.state(
            try context.parameters.require("confirmationId"), for: try context.requireApp())
        return try Response.json(state, noStore: true)
    }

    @Sendable func decide(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(DecisionRequest.self, context: context)
        return try Response.json(
            try await services.confirmations.decide(
                try context.parameters.require("confirmationId"), assertion: body.assertion, ip: context.clientAddress))
    }
}
