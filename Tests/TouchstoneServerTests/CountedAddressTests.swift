import Testing

@testable import TouchstoneDomain

/// What the per-address counters count by (PROTOCOL.md "Operations"): an IPv6 address by its /64, an IPv4-mapped one
/// as its IPv4 address.
@Suite struct CountedAddressTests {
    @Test(arguments: [
        // IPv4 addresses count as themselves.
        ("192.0.2.1", "192.0.2.1"),
        // Every spelling of one /64 gives one key: compressed or not, any case, with a zone id.
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:0db8:0001:0002:0000:0000:0000:0001", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2:FFFF:FFFF:FFFF:FFFF", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:a:b:c:d", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80:0:0:0::/64"),
        ("fe80::2%2", "fe80:0:0:0::/64"),
        ("2001:db8::", "2001:db8:0:0::/64"),
        ("::1", "0:0:0:0::/64"),
        // An IPv4-mapped address is its IPv4 address, in either spelling.
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("::FFFF:c000:0201", "192.0.2.1"),
        ("0:0:0:0:0:ffff:192.0.2.1", "192.0.2.1"),
        // The next /64 and an IPv4-compatible-looking address outside ::ffff:0:0/96 count apart.
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::fffe:192.0.2.1", "0:0:0:0::/64"),
    ])
    func addressesCountByTheirKey(address: String, key: String) {
        #expect(CountedAddress.key(address) == key)
    }

    @Test(arguments: ["unknown", "", "2001:db8::1::2", "192.0.2.256", "::ffff:192.0.2", "%eth0", "[2001:db8::1]"])
    func textThatIsNoAddressIsItsOwnKey(text: String) {
        #expect(CountedAddress.key(text) == text)
    }
}
