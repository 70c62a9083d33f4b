import Hummingbird
import TouchstoneProtocol

/// The `/v1/webauthn` routes: passkey registration, sign-in and the account's passkeys.
struct PasskeyController: Sendable {
    let environment: ServiceEnvironment

    private var address: ClientAddress { ClientAddress(trustedProxies: environment.settings.trustedProxies) }
    private var passkeys: PasskeyService { PasskeyService(environment: environment) }

    func addRoutes(to router: Router<TouchstoneRequestContext>) {
        let webauthn = router.group("v1/webauthn")
        webauthn.post("registration/options") { request, context in
            let identity = try await identity(of: request)
            var request = request
            _ = try await request.decodeBody(NoFields.self, context: context, allowingEmpty: true)
            let options = try await passkeys.startRegistration(by: identity, ip: address.of(request, context: context))
            return try Response.json(options, noStore: true)
        }
        webauthn.post("registration/verify") { request, context in
            let identity = try await identity(of: request)
            var request = request
            let body = try await request.decodeBody(PasskeyRegistrationFinish.self, context: context)
            let registered = try await passkeys.finishRegistration(
                body, by: identity, ip: address.of(request, context: context))
            return try Response.json(registered, status: .created)
        }
        webauthn.post("authentication/options") { request, context in
            var request = request
            let body = try await request.decodeBody(PasskeyAuthenticationStart.self, context: context)
            return try Response.json(try await passkeys.startAuthentication(body), noStore: true)
        }
        webauthn.post("authentication/verify") { request, context in
            var request = request
            let body = try await request.decodeBody(PasskeyAuthenticationFinish.self, context: context)
            let session = try await passkeys.finishAuthentication(body, ip: address.of(request, context: context))
            return try Response.json(session, status: .created, noStore: true)
        }
        webauthn.get("credentials") { request, _ in
            try Response.json(try await passkeys.list(try await identity(of: request)), noStore: true)
        }
        webauthn.delete("credentials/:id") { request, context in
            try await passkeys.delete(
                try context.parameters.require("id"), by: try await identity(of: request),
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
