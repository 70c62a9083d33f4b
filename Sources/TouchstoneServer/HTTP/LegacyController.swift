import Hummingbird
import TouchstoneProtocol

/// The legacy auth0/TouchIDAuth routes, mounted only with `serve --touchidauth-compat`.
struct LegacyController: Sendable {
    let environment: ServiceEnvironment

    struct PublicKeyRegistration: Decodable {
        let user: String
        let key: String
        let password: String
    }

    struct Registered: Encodable {
        struct User: Encodable {
            let id: String
        }

        let user: User
    }

    struct LoginRequest: Decodable {
        let jwt: String
    }

    func addRoutes(to router: Router<TouchstoneRequestContext>) {
        let address = ClientAddress(trustedProxies: environment.settings.trustedProxies)
        router.on(.legacyRegisterKey) { request, context in
            var request = request
            let body = try await request.decodeBody(PublicKeyRegistration.self, context: context)
            let userId = try await LegacyService(environment: environment).register(
                username: body.user, key: body.key, password: body.password, ip: address.of(request, context: context))
            return try Response.json(Registered(user: .init(id: userId)))
        }
        router.on(.legacyLogin) { request, context in
            var request = request
            let body = try await request.decodeBody(LoginRequest.self, context: context)
            let session = try await LegacyService(environment: environment).login(
                jwt: body.jwt, ip: address.of(request, context: context))
            return try Response.json(session, noStore: true)
        }
    }
}
