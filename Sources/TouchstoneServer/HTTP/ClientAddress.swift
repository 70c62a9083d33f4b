import Hummingbird

/// The client's address: the socket peer, or the last `X-Forwarded-For` hop when the peer is a trusted proxy.
struct ClientAddress: Sendable {
    let trustedProxies: [CIDR]

    func of(_ request: Request, context: TouchstoneRequestContext) -> String {
        let peer = context.peerAddress ?? "unknown"
        guard trustedProxies.contains(where: { $0.contains(peer) }),
            let forwarded = request.headers[values: .xForwardedFor].last,
            let hop = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
            CIDR.bytes(hop) != nil
        else { return peer }
        return hop
    }
}
