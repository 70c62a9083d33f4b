import Foundation
import Testing
import TouchstoneProtocol

/// Base64url without padding (RFC 4648 §5): the encoding of every binary value on the wire.
@Suite struct Base64URLTests {
    /// RFC 4648 §10, without padding.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(_ plain: String, _ encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Data(plain.utf8))
    }

    @Test func usesTheURLAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([0xFF, 0xFE, 0xFD, 0xFC]) == "__79_A")
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
    }

    @Test func roundTripsEveryLengthAndByte() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(encoded) == Data(bytes))
        }
        let all = (0...255).map { UInt8($0) }
        #expect(Base64URL.decode(Base64URL.encode(all)) == Data(all))
    }

    @Test(arguments: ["Zg==", "Zm8=", "Zg=", "=", "Zm9v=", "Zm9vYg=="])
    func rejectsPadding(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test(arguments: ["+_8", "-/8", "+/8A", "Zm 9v", "Zm9v\n", " Zm9v", "Zm9v.", "Zm9v%3D", "Zm9vé"])
    func rejectsCharactersOutsideTheAlphabet(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test(arguments: ["Z", "Zm9vY", "Zm9vYmFyZ", "AAAAA"])
    func rejectsImpossibleLengths(_ text: String) {
        #expect(text.utf8.count % 4 == 1)
        #expect(Base64URL.decode(text) == nil)
    }
}
