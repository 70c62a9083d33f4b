import Hummingbird
import TouchstoneDomain

/// Works out the client's address once per request: the socket peer, or the last `X-Forwarded-For` hop when the
/// peer is a trusted proxy.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = TouchstoneRequestContext

    let trustedProxies: [CIDR]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        context.clientAddress = address(of: request, peer: context.peerAddress ?? "unknown")
        return try await next(request, context)
    }

    private func address(of request: Request, peer: String) -> String {
        guard trustedProxies.contains(where: { $0.contains(peer) }),
            let forwarded = request.headers[values: .xForwardedFor].last,
            let hop = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
            CIDR.bytes(hop) != nil
        else { return peer }
        return hop
    }
}
