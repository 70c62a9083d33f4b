import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// The `/v1/webauthn` routes: passkey registration, sign-in and the account's passkeys.
struct PasskeyController {
    let services: Services

    private var passkeys: PasskeyService { services.passkeys }

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.passkeyAuthenticationOptions, use: authenticationOptions)
        routes.on(.passkeyAuthenticationVerify, use: authenticate)
        routes.group()
            .add(middleware: BearerAuthenticator(sessions: services.sessions))
            .on(.passkeyRegistrationOptions, use: registrationOptions)
            .on(.passkeyRegistrationVerify, use: register)
            .on(.passkeys, use: list)
            .on(.removePasskey, use: remove)
        return routes
    }

    @Sendable func registrationOptions(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        _ = try await request.decodeBody(NoFields.self, context: context, allowingEmpty: true)
        return try Response.json(
            try await passkeys.startRegistration(by: identity, ip: context.clientAddress), noStore: true)
    }

    @Sendable func register(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let body = try await request.decodeBody(PasskeyRegistrationFinish.self, context: context)
        let registered = try await passkeys.finishRegistration(body, by: identity, ip: context.clientAddress)
        return try Response.json(registered, status: .created)
    }

    @Sendable func authenticationOptions(_ request: Request, context: TouchstoneRequestContext) async throws
        -> Response
    {
        let body = try await request.decodeBody(PasskeyAuthenticationStart.self, context: context)
        return try Response.json(try await passkeys.startAuthentication(body), noStore: true)
    }

    @Sendable func authenticate(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(PasskeyAuthenticationFinish.self, context: context)
        let session = try await passkeys.finishAuthentication(body, ip: context.clientAddress)
        return Response.json(session, status: .created, noStore: true)
    }

    @Sendable func list(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try Response.json(try await passkeys.list(try context.requireIdentity()), noStore: true)
    }

    @Sendable func remove(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try await passkeys.delete(
            try context.parameters.require("credentialId"), by: try context.requireIdentity(), ip: context.clientAddress)
        return Response(status: .noContent)
    }
}

/// A body with no fields (`{}`); unknown members are ignored, like everywhere else. It must be a JSON object: a
/// synthesized `init(from:)` of a struct without properties never opens a container, so it would take any JSON value.
private struct NoFields: Decodable {
    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
