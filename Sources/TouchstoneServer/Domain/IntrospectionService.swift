import TouchstoneCrypto
import TouchstoneProtocol

/// `POST /v1/introspect` for relying services, scoped to the API key's publisher.
struct IntrospectionService: Sendable {
    let environment: ServiceEnvironment

    /// The app of an API key, or 401.
    func app(forAPIKey key: String) async throws -> AppRecord {
        guard let clientId = try await environment.store.apiKeyClientId(hash: SecretDigest.sha256(key)),
            let app = try await environment.store.app(clientId: clientId)
        else { throw ProblemError(401, .unauthorized, "A valid API key is required.") }
        return app
    }

    func introspect(_ token: String, for caller: AppRecord) async throws -> IntrospectionResult {
        guard let identity = try? await SessionService(environment: environment).authenticate(bearer: token),
            let audience = try await environment.store.app(clientId: identity.claims.aud),
            audience.publisher == caller.publisher
        else { return .inactive }
        let claims = identity.claims
        return IntrospectionResult(
            active: true, sub: claims.sub, aud: claims.aud, did: claims.did, amr: claims.amr, acr: claims.acr,
            scope: claims.scope, exp: Int(claims.exp))
    }
}
