/// A JSON object written straight into bytes, for the few bodies of the login path where Foundation's `JSONEncoder`
/// cost more than the rest of their answer (issue 20's profile): members are written in the order they are given,
/// strings escaped as RFC 8259 requires and as ``WireCoding`` does (`"`, `\` and control characters; `/` and
/// non-ASCII as they are). Every type written this way is tested to decode to itself, and those that ``WireCoding``
/// encodes to give the same bytes.
public struct JSONObjectWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// The object, closed.
    public consuming func finished() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// `null` for `nil`.
    public mutating func member(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { write(value) } else { bytes.append(contentsOf: "null".utf8) }
    }

    public mutating func member(_ name: StaticString, _ value: some BinaryInteger) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func member(_ name: StaticString, _ values: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An RFC 3339 time in UTC to the second, as ``WireCoding`` writes dates (`2026-11-27T01:40:00Z`).
    public mutating func member(_ name: StaticString, date secondsSince1970: Int64) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: Self.rfc3339(secondsSince1970).utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A value already serialized as JSON (such as ``CanonicalJSON``'s bytes), written as it is.
    public mutating func member(_ name: StaticString, json: [UInt8]) {
        key(name)
        bytes.append(contentsOf: json)
    }

    /// A nested object.
    public mutating func member(_ name: StaticString, object: (inout JSONObjectWriter) -> Void) {
        key(name)
        var nested = JSONObjectWriter(capacity: 64)
        object(&nested)
        bytes.append(contentsOf: nested.finished())
    }

    private mutating func key(_ name: StaticString) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: "\":".utf8)
    }

    private mutating func write(_ string: String) {
        JSONString.append(string, to: &bytes)
    }

    /// `YYYY-MM-DDThh:mm:ssZ` of a time in whole seconds since 1970 (the proleptic Gregorian calendar: Howard
    /// Hinnant's `civil_from_days`).
    static func rfc3339(_ secondsSince1970: Int64) -> String {
        let days = secondsSince1970.floorDivided(by: 86_400)
        let secondOfDay = secondsSince1970 - days * 86_400
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(paddedYear)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600))"
            + ":\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

/// A wire body that writes its own JSON with ``JSONObjectWriter``: the bytes ``WireCoding``'s encoder gives for it.
public protocol HandWrittenJSON: Encodable {
    func writeJSON(into object: inout JSONObjectWriter)
}

extension HandWrittenJSON {
    /// The JSON text of this body.
    public var jsonBytes: [UInt8] {
        var object = JSONObjectWriter()
        writeJSON(into: &object)
        return object.finished()
    }
}

/// A JSON string as both of our writers put it (RFC 8785 §3.2.2.2, which every JSON reader accepts): `"` and `\`
/// escaped, the short escapes `\b \t \n \f \r`, other controls as `\u00xx` (lowercase hex), every other character as
/// it is, in UTF-8.
enum JSONString {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func append(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x00..<0x20:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
