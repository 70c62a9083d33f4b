import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// A device's push registration, behind its own request token as the inbox is.
struct PushController {
    let push: PushService
    let sessions: SessionService

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.group()
            .add(middleware: DeviceAuthenticator(sessions: sessions))
            .on(.registerPush, use: register)
            .on(.pushRegistration, use: show)
            .on(.removePushRegistration, use: remove)
        return routes
    }

    @Sendable func register(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let device = try context.requireDevice()
        let body = try await request.decodeBody(PushRegistrationRequest.self, context: context)
        try await push.register(body, by: device)
        return Response(status: .noContent)
    }

    @Sendable func show(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try Response.json(try await push.registration(of: try context.requireDevice()), noStore: true)
    }

    @Sendable func remove(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await push.unregister(try context.requireDevice())
        return Response(status: .noContent)
    }
}
