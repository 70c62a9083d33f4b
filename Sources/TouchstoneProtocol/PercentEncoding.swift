/// Percent-encoding (RFC 3986 §2.1) of text for one path segment, query value or form value.
public enum PercentEncoding {
    /// RFC 3986 unreserved characters stay; every other byte of the UTF-8 is `%XX`.
    public static func unreserved(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var encoded = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hex[Int(byte >> 4)])
                encoded.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    /// Whether `text` holds only what RFC 3986 allows in a URI (§2): unreserved characters, reserved ones (gen-delims
    /// `:/?#[]@`, sub-delims `!$&'()*+,;=`), and `%` only as the start of a percent-encoded octet (`%` and two hex
    /// digits). So no white space, control character, `\`, `"`, `<`, `>`, `^`, `` ` ``, `{`, `|`, `}` or non-ASCII:
    /// characters that parsers read differently (browsers take `\` for `/`).
    public static func isURIText(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = bytes.next(), let low = bytes.next(), isHexDigit(high), isHexDigit(low) else {
                    return false
                }
            } else if !isUnreserved(byte) && !isReserved(byte) {
                return false
            }
        }
        return true
    }

    /// Whether `byte` is one of RFC 3986's reserved characters (§2.2): gen-delims `:/?#[]@` and sub-delims
    /// `!$&'()*+,;=`.
    public static func isReserved(_ byte: UInt8) -> Bool {
        ":/?#[]@!$&'()*+,;=".utf8.contains(byte)
    }

    /// `[0-9A-Fa-f]`.
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "a")...UInt8(ascii: "f"):
            true
        default:
            false
        }
    }

    /// Whether `byte` is one of RFC 3986's unreserved characters (§2.3): `[A-Za-z0-9-._~]`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
