import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// Users, their devices and sessions, and resets (PROTOCOL "Administration API"): each route reads its input and
/// answers what ``AdminUserService`` decided.
struct AdminUserController {
    let users: AdminUserService

    var routes: RouteCollection<AdminRequestContext> {
        let routes = RouteCollection(context: AdminRequestContext.self)
        routes.on(AdminEndpoint.users, use: search)
        routes.on(AdminEndpoint.user, use: user)
        routes.on(AdminEndpoint.resetUser, use: reset)
        routes.on(AdminEndpoint.revokeDevice, use: revokeDevice)
        routes.on(AdminEndpoint.sessions, use: sessions)
        routes.on(AdminEndpoint.endSession, use: endSession)
        return routes
    }

    @Sendable func search(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let query = AdminQuery(request)
        let page = try await users.users(
            username: query["username"], prefix: query["prefix"], limit: try query.limit(), cursor: query["cursor"])
        return try Response.json(page)
    }

    @Sendable func user(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try Response.json(try await users.user(try context.parameter("userId")))
    }

    @Sendable func reset(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try await users.reset(try context.parameter("userId"), by: try context.requireCaller())
        return Response(status: .noContent)
    }

    @Sendable func revokeDevice(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try await users.revokeDevice(
            try context.parameter("deviceId"), of: try context.parameter("userId"),
            by: try context.requireCaller())
        return Response(status: .noContent)
    }

    @Sendable func sessions(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try Response.json(try await users.sessions(of: try context.parameter("userId")))
    }

    @Sendable func endSession(_ request: Request, context: AdminRequestContext) async throws -> Response {
        try await users.endSession(
            try context.parameter("sessionId"), of: try context.parameter("userId"),
            by: try context.requireCaller())
        return Response(status: .noContent)
    }
}
