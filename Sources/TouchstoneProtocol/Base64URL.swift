import Foundation

/// Base64url without padding (RFC 4648 §5), the encoding of every binary value on the wire.
///
/// Written out rather than built on Foundation's base64 and string replacements: every request of a login encodes
/// and decodes several values, and this is several times faster.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes as base64url without padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        let outputCount = (input.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: outputCount) { output in
            var out = 0
            var index = 0
            while index + 3 <= input.count {
                let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                output[out] = alphabet[Int(chunk >> 18 & 63)]
                output[out + 1] = alphabet[Int(chunk >> 12 & 63)]
                output[out + 2] = alphabet[Int(chunk >> 6 & 63)]
                output[out + 3] = alphabet[Int(chunk & 63)]
                out += 4
                index += 3
            }
            switch input.count - index {
            case 2:
                let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                output[out] = alphabet[Int(chunk >> 18 & 63)]
                output[out + 1] = alphabet[Int(chunk >> 12 & 63)]
                output[out + 2] = alphabet[Int(chunk >> 6 & 63)]
                out += 3
            case 1:
                let chunk = UInt32(input[index]) << 16
                output[out] = alphabet[Int(chunk >> 18 & 63)]
                output[out + 1] = alphabet[Int(chunk >> 12 & 63)]
                out += 2
            default:
                break
            }
            return out
        }
    }

    /// Decodes base64url without padding; `nil` for padding, characters outside the alphabet or an impossible length.
    ///
    /// Spare bits in the last character are ignored, as Foundation's decoder does.
    public static func decode(_ text: String) -> Data? {
        bytes(text, canonical: false).map { Data($0) }
    }

    /// Decodes canonical base64url: as ``decode(_:)``, and the spare bits of the last character must be zero, so that
    /// every byte string has exactly one spelling (the WebAuthn JSON serialization reads it so).
    public static func canonicalBytes(_ text: String) -> [UInt8]? {
        bytes(text, canonical: true)
    }

    private static func bytes(_ text: String, canonical: Bool) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in utf8 {
            guard let value = sextet(byte) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        if canonical, buffer & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
