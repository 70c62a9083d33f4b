import Foundation
import Hummingbird
import NIOCore
import TouchstoneDomain
import TouchstoneProtocol

/// The admin API (`/admin/v1/*`, PROTOCOL "Administration API"), served on the admin listener only: the middleware of
/// the public API that fits an operator's client (server spans, request ids, metrics, the request log, security
/// headers, problem answers), the admin token's check, then the routes by area.
package enum AdminRouter {
    /// The router over `services`.
    package static func build(services: Services) -> Router<AdminRequestContext> {
        let router = Router(context: AdminRequestContext.self)
        router.add(middleware: RequestSpanMiddleware())
        router.add(middleware: RequestIdMiddleware())
        router.add(middleware: MetricsMiddleware(factory: services.environment.metrics.factory))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ProblemMiddleware())
        router.on(AdminEndpoint.openAPI) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(string: openAPIDocument)))
        }
        let guarded = router.group().add(middleware: AdminAuthenticator(tokens: services.admin.tokens))
        guarded.addRoutes(AdminAppController(apps: services.admin.apps).routes)
        guarded.addRoutes(AdminUserController(users: services.admin.users).routes)
        guarded.addRoutes(AdminAuditController(audit: services.admin.audit).routes)
        guarded.addRoutes(AdminWebhookController(webhooks: services.webhooks).routes)
        return router
    }

    /// `admin-openapi.yaml`, served at `GET /admin/v1/openapi.yaml` without a token: it describes the API and holds
    /// no data.
    static let openAPIDocument: String = {
        guard
            let url = Bundle.module.url(forResource: "admin-openapi", withExtension: "yaml", subdirectory: "Resources"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return "" }
        return text
    }()
}
