import Testing
@testable import TouchstoneWebAuthn

@Suite struct CollectedClientDataTests {
    @Test func parsesAsJSONNotAsATemplate() throws {
        let json = #" { "origin" : "https://example.org", "challenge":"AAEC", "type":"webauthn.get", "crossOrigin":true, "topOrigin":"https://a.example", "extra":{"nested":[1,2]} } "#
        let data = try CollectedClientData(json: Array(json.utf8))
        #expect(data.type == "webauthn.get")
        #expect(data.challenge == "AAEC")
        #expect(data.origin == "https://example.org")
        #expect(data.crossOrigin == true)
        #expect(data.topOrigin == "https://a.example")
        let minimal = try CollectedClientData(json: [0xef, 0xbb, 0xbf] + Array(#"{"type":"t","challenge":"c","origin":"o"}"#.utf8))
        #expect(minimal.crossOrigin == nil && minimal.topOrigin == nil)
        // Every §16 clientDataJSON parses, including those with extraData.
        for vector in W3CVector.all {
            #expect(try CollectedClientData(json: vector.registrationClientData).type == "webauthn.create")
            #expect(try CollectedClientData(json: vector.authenticationClientData).type == "webauthn.get")
        }
    }

    @Test func refusesNonUTF8AndWrongTypes() {
        for json in [
            [0xef, 0xbb] + Array(#"{"type":"t","challenge":"c","origin":"o"}"#.utf8),
            Array(#"{"type":1,"challenge":"c","origin":"o"}"#.utf8),
            Array(#"{"type":"t","challenge":"c","origin":"o","topOrigin":false}"#.utf8),
            Array(#"{"type":"t","challenge":"c"}"#.utf8),
            Array("".utf8),
            [0x7b, 0xff, 0x7d],
        ] {
            expectError(.malformedClientData, sync: { _ = try CollectedClientData(json: json) })
        }
    }
}
