import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// Webhooks (PROTOCOL "Administration API, webhooks"): each route reads its input and answers what
/// ``WebhookService`` decided.
struct AdminWebhookController {
    let webhooks: WebhookService

    var routes: RouteCollection<AdminRequestContext> {
        let routes = RouteCollection(context: AdminRequestContext.self)
        routes.on(AdminEndpoint.webhooks, use: list)
        routes.on(AdminEndpoint.createWebhook, use: create)
        routes.on(AdminEndpoint.deleteWebhook, use: delete)
        routes.on(AdminEndpoint.testWebhook, use: test)
        return routes
    }

    @Sendable func list(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try Response.json(try await webhooks.list())
    }

    @Sendable func create(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let body = try await request.decodeBody(WebhookInput.self, context: context)
        return try Response.json(try await webhooks.create(body, by: try context.requireCaller()), status: .created, noStore: true)
    }

    @Sendable func delete(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try await webhooks.delete(try context.parameter("webhookId"), by: try context.requireCaller())
        return Response(status: .noContent)
    }

    @Sendable func test(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try await webhooks.test(try context.parameter("webhookId"), by: try context.requireCaller())
        return Response(status: .accepted)
    }
}
