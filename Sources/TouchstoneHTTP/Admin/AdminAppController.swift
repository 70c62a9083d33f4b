import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// Apps and their API keys (PROTOCOL "Administration API"): each route reads its input and answers what
/// ``AdminAppService`` decided.
struct AdminAppController {
    let apps: AdminAppService

    var routes: RouteCollection<AdminRequestContext> {
        let routes = RouteCollection(context: AdminRequestContext.self)
        routes.on(AdminEndpoint.apps, use: list)
        routes.on(AdminEndpoint.createApp, use: create)
        routes.on(AdminEndpoint.app, use: app)
        routes.on(AdminEndpoint.updateApp, use: update)
        routes.on(AdminEndpoint.deleteApp, use: delete)
        routes.on(AdminEndpoint.newClientSecret, use: newSecret)
        routes.on(AdminEndpoint.apiKeys, use: apiKeys)
        routes.on(AdminEndpoint.createAPIKey, use: createAPIKey)
        routes.on(AdminEndpoint.revokeAPIKey, use: revokeAPIKey)
        return routes
    }

    /// `{apps: [...]}`.
    private struct AppList: Encodable {
        let apps: [AdminApp]
    }

    @Sendable func list(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try Response.json(AppList(apps: try await apps.list()))
    }

    @Sendable func create(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let body = try await request.decodeBody(AdminAppInput.self, context: context)
        return try Response.json(try await apps.create(body, by: try context.requireCaller()), status: .created, noStore: true)
    }

    @Sendable func app(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try Response.json(try await apps.get(try context.parameter("clientId")))
    }

    @Sendable func update(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let body = try await request.decodeBody(AdminAppChanges.self, context: context)
        return try Response.json(
            try await apps.update(try context.parameter("clientId"), body, by: try context.requireCaller()))
    }

    @Sendable func delete(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try await apps.delete(try context.parameter("clientId"), by: try context.requireCaller())
        return Response(status: .noContent)
    }

    @Sendable func newSecret(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let secret = try await apps.newSecret(try context.parameter("clientId"), by: try context.requireCaller())
        return try Response.json(secret, noStore: true)
    }

    @Sendable func apiKeys(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try Response.json(try await apps.apiKeys(try context.parameter("clientId")))
    }

    @Sendable func createAPIKey(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let key = try await apps.createAPIKey(try context.parameter("clientId"), by: try context.requireCaller())
        return try Response.json(key, status: .created, noStore: true)
    }

    @Sendable func revokeAPIKey(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try await apps.revokeAPIKey(
            try context.parameter("keyId"), of: try context.parameter("clientId"),
            by: try context.requireCaller())
        return Response(status: .noContent)
    }
}
