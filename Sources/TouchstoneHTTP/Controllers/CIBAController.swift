import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// A device's decision on an OpenID CIBA request (the client's side is ``ProviderController``'s `bc-authorize` and
/// token endpoint).
struct CIBAController {
    let ciba: CIBAService

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.decideBackchannel, use: decide)
        return routes
    }

    @Sendable func decide(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(DecisionRequest.self, context: context)
        return try Response.json(
            try await ciba.decide(
                try context.parameters.require("cibaId"), assertion: body.assertion, ip: context.clientAddress))
    }
}
