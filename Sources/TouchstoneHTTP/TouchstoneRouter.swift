import Foundation
import Hummingbird
import TouchstoneDomain

/// The HTTP face of the domain: every route collection behind the middleware every answer goes through.
package enum TouchstoneRouter {
    /// The router over `services`.
    /// - Parameter web: the web page's files (``WebController/bundled(accountClientId:relyingPartyId:)``).
    package static func build(services: Services, web: WebController) -> Router<TouchstoneRequestContext> {
        let settings = services.environment.settings
        let router = Router(context: TouchstoneRequestContext.self)
        // First, so that its span covers every other middleware and is the parent of all the request's spans.
        router.add(middleware: RequestSpanMiddleware())
        router.add(middleware: RequestIdMiddleware())
        router.add(middleware: MetricsMiddleware(factory: services.environment.metrics.factory))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: AllowedOriginsMiddleware(origins: Set(settings.relyingParty.origins)))
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: ClientAddressMiddleware(trustedProxies: settings.trustedProxies))
        router.add(middleware: RateLimitMiddleware(limiter: RateLimiter(environment: services.environment)))
        router.addRoutes(DiscoveryController(environment: services.environment, openAPI: openAPIDocument).routes)
        router.addRoutes(AccountController(services: services).routes)
        router.addRoutes(EnrollmentController(enrollments: services.enrollments).routes)
        router.addRoutes(SessionController(services: services).routes)
        router.addRoutes(DeviceController(services: services).routes)
        router.addRoutes(PushController(push: services.push, sessions: services.sessions).routes)
        router.addRoutes(ConfirmationController(services: services).routes)
        router.addRoutes(WebLoginController(webLogins: services.webLogins).routes)
        router.addRoutes(CIBAController(ciba: services.ciba).routes)
        router.addRoutes(PasskeyController(services: services).routes)
        router.addRoutes(ProviderController(services: services).routes)
        router.addRoutes(web.routes)
        if settings.touchIDAuthCompat {
            router.addRoutes(LegacyController(legacy: services.legacy).routes)
        }
        return router
    }

    /// `openapi.yaml`, served at `GET /openapi.yaml`.
    static let openAPIDocument: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "Resources"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return "" }
        return text
    }()
}
