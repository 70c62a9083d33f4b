import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// Accounts: sign-up, the password session, the account's profile, step-up, a new password and recovery codes.
struct AccountController {
    let services: Services

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.createAccount, use: create)
        routes.on(.passwordSession, use: passwordSession)
        routes.group()
            .add(middleware: BearerAuthenticator(sessions: services.sessions))
            .on(.account, use: profile)
            .on(.stepUp, use: stepUp)
            .on(.setPassword, use: setPassword)
            .on(.createRecoveryCodes, use: createRecoveryCodes)
            .on(.accountNotices, use: notices)
        return routes
    }

    @Sendable func create(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(CreateAccountRequest.self, context: context)
        return try Response.json(
            try await services.accounts.create(body, ip: context.clientAddress), status: .created)
    }

    @Sendable func passwordSession(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(PasswordLoginRequest.self, context: context)
        let session = try await services.accounts.passwordSession(body, ip: context.clientAddress)
        return Response.json(session, status: .created, noStore: true)
    }

    @Sendable func profile(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try Response.json(try await services.accounts.profile(try context.requireIdentity()), noStore: true)
    }

    @Sendable func stepUp(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let body = try await request.decodeBody(PasswordRequest.self, context: context)
        let token = try await services.stepUp.stepUp(identity, password: body.password, ip: context.clientAddress)
        return try Response.json(token, noStore: true)
    }

    @Sendable func setPassword(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let body = try await request.decodeBody(PasswordRequest.self, context: context)
        try await services.stepUp.setPassword(body.password, by: identity, ip: context.clientAddress)
        return Response(status: .noContent)
    }

    @Sendable func notices(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        try Response.json(try await services.inbox.accountNotices(try context.requireIdentity()), noStore: true)
    }

    @Sendable func createRecoveryCodes(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let codes = try await services.recovery.createCodes(by: try context.requireIdentity(), ip: context.clientAddress)
        return try Response.json(codes, status: .created, noStore: true)
    }
}
