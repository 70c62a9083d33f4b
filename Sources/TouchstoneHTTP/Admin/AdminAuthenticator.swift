import HTTPTypes
import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// `Authorization: Bearer tsa_…`: puts the admin token's caller into the context, or refuses the request. No token, or
/// an unknown or revoked one: 401 `unauthorized` with `WWW-Authenticate: Bearer`; a `read` token on a change (any
/// method but GET and HEAD): 403 `insufficient_scope` with `WWW-Authenticate: Bearer error="insufficient_scope"`
/// (RFC 6750 §3). The services check the scope of every change again; their refusal gets the same header.
struct AdminAuthenticator: RouterMiddleware {
    typealias Context = AdminRequestContext

    let tokens: AdminTokenService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            let caller = try await tokens.authenticate(
                bearer: request.authorization(scheme: "Bearer"), ip: context.clientAddress)
            if ![.get, .head].contains(request.method) {
                try caller.require(.write)
            }
            var context = context
            context.caller = caller
            return try await next(request, context)
        } catch let refusal as ProblemError {
            guard let challenge = Self.challenge(refusal.code) else { throw refusal }
            var response = try refusal.response(from: request, context: context)
            response.headers[.wwwAuthenticate] = challenge
            return response
        }
    }

    /// The `WWW-Authenticate` challenge of a refused token, if `code` refuses one.
    static func challenge(_ code: ProblemCode) -> String? {
        switch code {
        case .unauthorized: "Bearer"
        case .insufficientScope: #"Bearer error="insufficient_scope""#
        default: nil
        }
    }
}
