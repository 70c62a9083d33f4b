import Foundation
import Testing
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

@Suite struct Base64URLTests {
    @Test func roundTripsAndMatchesFoundation() {
        var rng = SplitMix64(seed: 64)
        for length in 0..<200 {
            let bytes = rng.bytes(length)
            let encoded = Base64URL.encode(bytes)
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(encoded == foundation)
            #expect(Base64URL.decode(encoded) == bytes)
        }
    }

    @Test func acceptsOnlyCanonicalUnpaddedBase64URL() {
        #expect(Base64URL.decode("QQ") == [0x41])
        #expect(Base64URL.decode("") == [])
        for bad in ["QQ==", "QR", "Q", "QUJD+A", "QUJD/A", "QU JD", "QUJD\n", "QUJDé"] {
            #expect(Base64URL.decode(bad) == nil, "\(bad)")
        }
    }

    @Test func codableFormIsAString() throws {
        let encoded = try JSONEncoder().encode(Base64URLBytes([0xfb, 0xff]))
        #expect(String(decoding: encoded, as: UTF8.self) == #""-_8""#)
        #expect(try JSONDecoder().decode(Base64URLBytes.self, from: encoded).bytes == [0xfb, 0xff])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Base64URLBytes.self, from: Data(#""+/8=""#.utf8)) }
    }
}
