import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// The account's devices: the list, removal, biometric opt-out, a new PIN, and each device's inbox.
struct DeviceController {
    let services: Services

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.group()
            .add(middleware: BearerAuthenticator(sessions: services.sessions))
            .on(.devices, use: list)
            .on(.removeDevice, use: remove)
            .on(.optOut, use: optOut)
            .on(.setPIN, use: setPIN)
        routes.group()
            .add(middleware: DeviceAuthenticator(sessions: services.sessions))
            .on(.inbox, use: inbox)
            .on(.inboxItem, use: inboxItem)
            .on(.dismissNotice, use: dismissNotice)
        return routes
    }

    @Sendable func list(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try Response.json(try await services.devices.list(try context.requireIdentity()), noStore: true)
    }

    @Sendable func remove(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await services.devices.delete(
            try context.parameters.require("deviceId"), by: try context.requireIdentity(), ip: context.clientAddress)
        return Response(status: .noContent)
    }

    @Sendable func optOut(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await services.devices.optOut(
            try context.parameters.require("deviceId"), by: try context.requireIdentity(), ip: context.clientAddress)
        return Response(status: .noContent)
    }

    @Sendable func setPIN(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let body = try await request.decodeBody(PINRequest.self, context: context)
        try await services.stepUp.setPIN(
            body.pin, deviceId: try context.parameters.require("deviceId"), by: identity, ip: context.clientAddress)
        return Response(status: .noContent)
    }

    /// `GET …/inbox?waitSeconds=N` (0 to 30): a long poll.
    @Sendable func inbox(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let wait = try request.uri.queryParameters.get("waitSeconds").map { text in
            guard let seconds = Int(text), (0...InboxService.longestWait).contains(seconds) else {
                throw ProblemError.invalidRequest("waitSeconds must be 0 to \(InboxService.longestWait)")
            }
            return seconds
        }
        let inbox = try await services.inbox.inbox(of: try context.requireDevice(), waitSeconds: wait ?? 0)
        return try Response.json(inbox, noStore: true)
    }

    /// `GET …/inbox/{itemId}`: one item, as the inbox lists it.
    @Sendable func inboxItem(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let entry = try await services.inbox.entry(
            try context.parameters.require("itemId"), of: try context.requireDevice())
        return try Response.json(entry, noStore: true)
    }

    /// `DELETE …/inbox/{itemId}`: dismisses a notice.
    @Sendable func dismissNotice(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await services.inbox.dismiss(try context.parameters.require("itemId"), by: try context.requireDevice())
        return Response(status: .noContent)
    }
}
