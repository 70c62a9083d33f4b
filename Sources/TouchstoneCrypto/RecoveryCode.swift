import Crypto
import TouchstoneProtocol

/// Recovery codes: 60 random bits written as `xxxx-xxxx-xxxx` in lowercase RFC 4648 base32 (`a–z`, `2–7`), read back
/// in any case and with or without hyphens, and stored as a SHA-256 digest bound to their account.
public enum RecoveryCode {
    /// How many codes a set has.
    public static let setSize = 10
    /// The RFC 4648 base32 alphabet, lowercase.
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".unicodeScalars)
    /// Characters of a code: 12 × 5 bits = 60 bits.
    static let length = 12

    /// A new code of 60 bits from `generator`, written `xxxx-xxxx-xxxx`.
    /// - ⚠️ Pass a cryptographically secure generator outside tests.
    public static func generate<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let bits = generator.next() as UInt64
        let characters = (0..<length).map { index in
            Character(alphabet[Int((bits >> UInt64(5 * (length - 1 - index))) & 0x1F)])
        }
        return String(characters[0..<4]) + "-" + String(characters[4..<8]) + "-" + String(characters[8..<12])
    }

    /// A set of ``setSize`` distinct new codes from `generator`.
    /// - ⚠️ Pass a cryptographically secure generator outside tests: a code is a way into the account.
    public static func generateSet<G: RandomNumberGenerator>(using generator: inout G) -> [String] {
        var codes: [String] = []
        while codes.count < setSize {
            let code = generate(using: &generator)
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// The twelve characters of a code as typed, lowercased and without its hyphens; `nil` when the text is not a code
    /// (another length, or a character outside the alphabet).
    public static func normalized(_ text: String) -> String? {
        let characters = text.lowercased().unicodeScalars.filter { $0 != "-" }
        guard characters.count == length, characters.allSatisfy(alphabet.contains) else { return nil }
        return String(String.UnicodeScalarView(characters))
    }

    /// How a code is stored: base64url(SHA-256(UTF-8 of `"touchstone-recovery-v1\n" + userId + "\n" + normalized`)),
    /// so that a digest says nothing without its account.
    /// - Parameter code: a code as ``normalized(_:)`` returns it.
    public static func digest(_ code: String, userId: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array("touchstone-recovery-v1\n\(userId)\n\(code)".utf8)))
    }
}
