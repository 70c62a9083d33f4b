/// How a value becomes part of one log line, so that nothing a client sent (a `clientDataJSON` member, a header, a
/// username, a detail built from them) can end the line, write a line of its own or pass for an escape
/// (PROTOCOL "Operations").
///
/// Both forms escape `\`, every control character (Unicode category Cc: U+0000–U+001F, U+007F–U+009F) and the line
/// and paragraph separators U+2028 and U+2029, as JSON spells escapes: `\n`, `\r`, `\t`, or `\u` and four lowercase
/// hex digits. Every other character stays as it is.
enum LogEscaping {
    /// The text format's form of `value`: `\` as `\\`, controls and U+2028/U+2029 as their escapes.
    static func text(_ value: String) -> String {
        escaped(value, quote: false)
    }

    /// `value` as a JSON string, quotes included: `"` as `\"` besides what ``text(_:)`` escapes. (RFC 8259 lets DEL,
    /// the C1 controls and U+2028/U+2029 stand as they are; they are escaped here too, so that no reader of a JSON line
    /// sees a line break or a terminal control in it.)
    static func json(_ value: String) -> String {
        "\"" + escaped(value, quote: true) + "\""
    }

    private static func escaped(_ value: String, quote: Bool) -> String {
        var result = String.UnicodeScalarView()
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result.append(contentsOf: #"\\"#.unicodeScalars)
            case "\"" where quote: result.append(contentsOf: #"\""#.unicodeScalars)
            case "\n": result.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": result.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": result.append(contentsOf: #"\t"#.unicodeScalars)
            case _ where mustEscape(scalar):
                result.append(contentsOf: #"\u"#.unicodeScalars)
                for shift in stride(from: 12, through: 0, by: -4) {
                    result.append(hexDigits[Int((scalar.value >> UInt32(shift)) & 0xF)])
                }
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// A control character (Cc) or U+2028/U+2029.
    private static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }

    private static let hexDigits = Array("0123456789abcdef".unicodeScalars)
}
