import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// `POST /v1/introspect` for relying services, scoped to the API key's publisher.
package struct IntrospectionService: Sendable {
    typealias Store = AppStore

    let store: any Store
    let accessTokens: AccessTokenCheck

    package func introspect(_ token: String, for caller: AuthenticatedApp) async throws -> IntrospectionResult {
        guard let identity = try await accessTokens.liveIdentity(of: token),
            let audience = try await store.app(clientId: identity.claims.aud),
            audience.publisher == caller.publisher
        else { return .inactive }
        let claims = identity.claims
        return IntrospectionResult(
            active: true, sub: claims.sub, aud: claims.aud, did: claims.did, amr: claims.amr, acr: claims.acr,
            scope: claims.scope, exp: Int(claims.exp), cnf: claims.cnf.map { IntrospectionResult.Confirmation(jkt: $0.jkt) })
    }

}
