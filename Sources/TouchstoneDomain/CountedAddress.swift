/// What the per-client-address counters count by (PROTOCOL.md "Operations"): an IPv4 address itself, an IPv6 address
/// by its /64 — one subscriber is commonly given a whole /64, so counting its addresses one by one would make it
/// millions of clients — and an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as its IPv4 address.
///
/// Only counters use it: the address stored and shown elsewhere (sessions, audit) stays the client's full address.
package enum CountedAddress {
    /// The counting key of a client address: `192.0.2.1` for `192.0.2.1` and `::ffff:192.0.2.1`, `2001:db8:0:1::/64`
    /// for any address of that /64, however spelled (compressed or not, any case, with a zone id or without). Text that
    /// is no address, such as `unknown` for a channel without a peer, is its own key.
    package static func key(_ address: String) -> String {
        // A zone id (`fe80::1%eth0`) names the link the address is reached on, not another address.
        let unzoned = address.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let bytes = CIDR.bytes(String(unzoned)) else { return address }
        if bytes.count == 4 {
            return dotted(bytes)
        }
        if bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return dotted(bytes.suffix(4))
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// `a.b.c.d` of four bytes.
    private static func dotted(_ bytes: some Collection<UInt8>) -> String {
        bytes.map(String.init).joined(separator: ".")
    }
}
