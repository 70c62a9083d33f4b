import Foundation

/// Base64url without padding (RFC 4648 §5), the encoding of every binary value on the wire.
///
/// Written out rather than built on Foundation's base64 and string replacements: every request of a login encodes
/// and decodes several values, and this is several times faster.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes as base64url without padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let encoded = bytes.withContiguousStorageIfAvailable({ encode($0) }) { return encoded }
        return Array(bytes).withUnsafeBufferPointer { encode($0) }
    }

    private static func encode(_ input: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: (input.count * 4 + 2) / 3) { output in
            alphabet.withUnsafeBufferPointer { alphabet in
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
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ bytes($0, canonical: canonical) }) {
            return decoded
        }
        return Array(text.utf8).withUnsafeBufferPointer { bytes($0, canonical: canonical) }
    }

    private static func bytes(_ input: UnsafeBufferPointer<UInt8>, canonical: Bool) -> [UInt8]? {
        let tail = input.count % 4
        guard tail != 1 else { return nil }
        return sextets.withUnsafeBufferPointer { sextets -> [UInt8]? in
            var valid = true
            let output = [UInt8](unsafeUninitializedCapacity: input.count * 3 / 4) { output, written in
                var index = 0
                var out = 0
                while index + 4 <= input.count {
                    let a = sextets[Int(input[index])], b = sextets[Int(input[index + 1])]
                    let c = sextets[Int(input[index + 2])], d = sextets[Int(input[index + 3])]
                    guard (a | b | c | d) & Self.invalid == 0 else {
                        valid = false
                        break
                    }
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[out] = UInt8(truncatingIfNeeded: chunk >> 16)
                    output[out + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    output[out + 2] = UInt8(truncatingIfNeeded: chunk)
                    index += 4
                    out += 3
                }
                if valid, tail > 0 {
                    // Two characters carry one byte and 4 spare bits; three carry two bytes and 2 spare bits.
                    let a = sextets[Int(input[index])], b = sextets[Int(input[index + 1])]
                    let c = tail == 3 ? sextets[Int(input[index + 2])] : 0
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                    let spare = tail == 3 ? UInt32(c & 0b11) : UInt32(b & 0b1111)
                    if (a | b | c) & Self.invalid != 0 || (canonical && spare != 0) {
                        valid = false
                    } else {
                        output[out] = UInt8(truncatingIfNeeded: chunk >> 16)
                        out += 1
                        if tail == 3 {
                            output[out] = UInt8(truncatingIfNeeded: chunk >> 8)
                            out += 1
                        }
                    }
                }
                written = out
            }
            return valid ? output : nil
        }
    }

    /// Marks a byte outside the alphabet in ``sextets``.
    private static let invalid: UInt8 = 0x80

    /// Each byte's value in the alphabet, or ``invalid``.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()
}
