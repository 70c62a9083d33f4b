import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// The audit log (PROTOCOL "Administration API"): `GET /admin/v1/audit` with its filters, newest first, paged.
struct AdminAuditController {
    let audit: AdminAuditService

    var routes: RouteCollection<AdminRequestContext> {
        let routes = RouteCollection(context: AdminRequestContext.self)
        routes.on(AdminEndpoint.audit, use: search)
        return routes
    }

    @Sendable func search(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let query = AdminQuery(request)
        let page = try await audit.events(
            userId: query["userId"], type: query["type"], since: try query.time("since"), until: try query.time("until"),
            limit: try query.limit(), cursor: query["cursor"])
        return try Response.json(page)
    }
}
