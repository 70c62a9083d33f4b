import Testing
@testable import TouchstoneWebAuthn

@Suite struct RelyingPartyConfigurationTests {
    @Test func normalizesOriginsAsBrowsersSerializeThem() throws {
        let rp = try RelyingPartyConfiguration(
            id: "Example.ORG", name: "Example",
            origins: ["https://example.org", "HTTPS://Login.Example.org:443", "https://example.org:8443", "https://example.org"],
            crossOrigin: .allowed(topOrigins: ["https://Shop.example:443"]))
        #expect(rp.id == "example.org")
        #expect(rp.origins == ["https://example.org", "https://login.example.org", "https://example.org:8443"])
        #expect(rp.crossOrigin == .allowed(topOrigins: ["https://shop.example"]))
        let local = try RelyingPartyConfiguration(id: "localhost", name: "Dev", origins: ["http://localhost:3000", "https://localhost"])
        #expect(local.origins == ["http://localhost:3000", "https://localhost"])
    }

    @Test func failsAtConstructionWhenTheRPIDIsNotASuffixOfEveryOrigin() {
        let bad: [(String, [String])] = [
            ("example.org", ["https://example.com"]),
            ("example.org", ["https://example.org", "https://evil.example"]),
            ("example.org", ["https://notexample.org"]),  // a suffix of the string, not of the labels
            ("login.example.org", ["https://example.org"]),  // a subdomain cannot claim its parent
            ("example.org", []),
            ("org", ["https://example.org"]),  // a single label
            ("com", ["https://com"]),
            ("example.org.", ["https://example.org"]),
            ("exa_mple.org", ["https://exa_mple.org"]),
            ("-example.org", ["https://-example.org"]),
            ("192.168.1.1", ["https://192.168.1.1"]),
            ("exämple.org", ["https://exämple.org"]),
        ]
        for (id, origins) in bad {
            expectError(.invalidConfiguration, "\(id) \(origins)", sync: {
                _ = try RelyingPartyConfiguration(id: id, name: "x", origins: origins)
            })
        }
    }

    @Test func acceptsOnlyHTTPSOriginsWithoutPathsAndHTTPForLocalhost() {
        for origin in [
            "http://example.org", "https://example.org/", "https://example.org/login", "https://example.org?x",
            "https://example.org#x", "https://user@example.org", "https://example.org:0", "https://example.org:65536",
            "https://example.org:x", "ftp://example.org", "example.org", "https://[::1]", "https://example.org:443:1",
            "http://127.0.0.1",
        ] {
            expectError(.invalidConfiguration, "\(origin)", sync: {
                _ = try RelyingPartyConfiguration(id: "example.org", name: "x", origins: [origin])
            })
        }
        expectError(.invalidConfiguration, sync: {
            _ = try RelyingPartyConfiguration(
                id: "example.org", name: "x", origins: ["https://example.org"], crossOrigin: .allowed(topOrigins: ["http://shop.example"]))
        })
    }
}
