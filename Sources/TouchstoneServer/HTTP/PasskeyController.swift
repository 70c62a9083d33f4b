import Hummingbird
import TouchstoneProtocol

/// The `/v1/webauthn` routes: passkey registration, sign-in and the account's passkeys.
struct PasskeyController: Sendable {
    let environment: ServiceEnvironment

    private var address: ClientAddress { ClientAddress(trustedProxies: environment.settings.trustedProxies) }
    private var passkeys: PasskeyService { PasskeyService(environment: environment) }

    func addRoutes(to router: Router<TouchstoneRequestContext>) {
        router.on(.passkeyRegistrationOptions) { request, context in
            let identity = try await identity(of: request)
            var request = request
            _ = try await request.decodeBody(NoFields.self, context: context, allowingEmpty: true)
            let options = try await passkeys.startRegistration(by: identity, ip: address.of(request, context: context))
            return try Response.json(options, noStore: true)
        }
        router.on(.passkeyRegistrationVerify) { request, context in
            let identity = try await identity(of: request)
            var request = request
            let body = try await request.decodeBody(PasskeyRegistrationFinish.self, context: context)
            let registered = try await passkeys.finishRegistration(
                body, by: identity, ip: address.of(request, context: context))
            return try Response.json(registered, status: .created)
        }
        router.on(.passkeyAuthenticationOptions) { request, context in
            var request = request
            let body = try await request.decodeBody(PasskeyAuthenticationStart.self, context: context)
            return try Response.json(try await passkeys.startAuthentication(body), noStore: true)
        }
        router.on(.passkeyAuthenticationVerify) { request, context in
            var request = request
            let body = try await request.decodeBody(PasskeyAuthenticationFinish.self, context: context)
            let session = try await passkeys.finishAuthentication(body, ip: address.of(request, context: context))
            return try Response.json(session, status: .created, noStore: true)
        }
        router.on(.passkeys) { request, _ in
            try Response.json(try await passkeys.list(try await identity(of: request)), noStore: true)
        }
        router.on(.removePasskey) { request, context in
            try await passkeys.delete(
                try context.parameters.require("credentialId"), by: try await identity(of: request),
                ip: address.of(request, context: context))
            return Response(status: .noContent)
        }
    }

    private func identity(of request: Request) async throws -> AccessIdentity {
        try await request.accessIdentity(environment)
    }
}

/// A body with no fields (`{}`); unknown members are ignored, like everywhere else.
private struct NoFields: Decodable {}
