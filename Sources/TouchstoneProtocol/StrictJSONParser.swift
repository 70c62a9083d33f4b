/// Reads JSON text (RFC 8259) under I-JSON's rules (RFC 7493): UTF-8 only, no duplicate member names in an object,
/// no lone surrogate in an escape, nothing after the value, and at most ``deepest`` nested arrays and objects.
///
/// Foundation's `JSONSerialization` keeps the last of two members with one name, so text that one reader takes as one
/// payment and another as a different one would pass it; what must be shown and hashed is read here.
public struct StrictJSONParser {
    /// Why text was refused, with the byte offset where reading stopped.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public let offset: Int
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// The most arrays and objects one value may nest.
    public static let deepest = 32

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one value `text` holds.
    /// - Throws: ``Refusal`` for text that is not I-JSON.
    public static func parse(_ text: some Sequence<UInt8>) throws -> JSONValue {
        var parser = StrictJSONParser(Array(text))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.refusal("text after the value") }
        return value
    }

    private func refusal(_ reason: String) -> Refusal {
        Refusal(reason: reason, offset: index)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws -> JSONValue {
        let expected = Array(literal.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw refusal("an unknown literal")
        }
        index += expected.count
        return value
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        switch current {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case let byte? where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte): return try number()
        default: throw refusal("no value")
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        guard depth <= Self.deepest else { throw refusal("nested too deeply") }
        index += 1
        var members: [(name: String, value: JSONValue)] = []
        // Names are compared scalar by scalar: Swift's `==` calls canonically equivalent names equal.
        var names: Set<[UInt32]> = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw refusal("a member without a string name") }
            let start = index
            let name = try string()
            guard names.insert(name.unicodeScalars.map(\.value)).inserted else { throw Refusal(reason: "a duplicate member name", offset: start) }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw refusal("no colon after a member name") }
            index += 1
            skipWhitespace()
            members.append((name, try value(depth: depth)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw refusal("an unterminated object")
            }
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        guard depth <= Self.deepest else { throw refusal("nested too deeply") }
        index += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            values.append(try value(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(values)
            default: throw refusal("an unterminated array")
            }
        }
    }

    private mutating func string() throws -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() throws {
            guard !raw.isEmpty else { return }
            // Decoding repairs ill-formed UTF-8 with U+FFFD, so a text that does not encode back to its bytes was not UTF-8.
            // (`String(validating:as:)` would say so directly, but Apple's platforms have it only from iOS 18 and macOS 15.)
            let text = String(decoding: raw, as: UTF8.self)
            guard text.utf8.elementsEqual(raw) else { throw refusal("a string that is not UTF-8") }
            scalars.append(contentsOf: text.unicodeScalars)
            raw.removeAll(keepingCapacity: true)
        }
        while true {
            guard let byte = current else { throw refusal("an unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                try flush()
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush()
                index += 1
                scalars.append(try escape())
            case 0x00..<0x20:
                throw refusal("a control character in a string")
            default:
                raw.append(byte)
                index += 1
            }
        }
    }

    private mutating func escape() throws -> Unicode.Scalar {
        guard let byte = current else { throw refusal("an unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            switch unit {
            case 0xD800...0xDBFF:
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw refusal("a lone surrogate") }
                index += 2
                let low = try hexUnit()
                guard (0xDC00...0xDFFF).contains(low) else { throw refusal("a lone surrogate") }
                let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw refusal("a lone surrogate") }
                return scalar
            case 0xDC00...0xDFFF:
                throw refusal("a lone surrogate")
            default:
                guard let scalar = Unicode.Scalar(unit) else { throw refusal("a lone surrogate") }
                return scalar
            }
        default:
            throw refusal("an unknown escape")
        }
    }

    private mutating func hexUnit() throws -> UInt16 {
        guard bytes.count - index >= 4 else { throw refusal("a short \\u escape") }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw refusal("a \\u escape that is not hexadecimal")
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as an IEEE 754 double (RFC 7493 §2.2).
    private mutating func number() throws -> JSONValue {
        let start = index
        func digits() -> Int {
            let first = index
            while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
            return index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw refusal("a malformed number")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw refusal("a malformed number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw refusal("a malformed number") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw Refusal(reason: "a number beyond IEEE 754 double precision", offset: start)
        }
        return .number(value)
    }
}
