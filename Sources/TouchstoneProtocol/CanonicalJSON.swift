/// The JSON Canonicalization Scheme (RFC 8785): the one serialization of a JSON value that a hash may commit to.
///
/// Objects' members sorted by their names' UTF-16 code units (§3.2.3), no white space, strings with the fewest
/// escapes ECMAScript's `JSON.stringify` makes (§3.2.2.2), numbers as ECMAScript writes a double (§3.2.2.3).
public enum CanonicalJSON {
    /// A number JCS cannot write: NaN or an infinity (§3.2.2.3).
    public struct NonFiniteNumber: Error, Sendable, Equatable {}

    /// The canonical UTF-8 bytes of `value`.
    /// - Throws: ``NonFiniteNumber`` for a NaN or infinite number anywhere in it.
    public static func bytes(of value: JSONValue) throws -> [UInt8] {
        var output: [UInt8] = []
        try write(value, into: &output)
        return output
    }

    /// The canonical text of `value`.
    /// - Throws: ``NonFiniteNumber`` for a NaN or infinite number anywhere in it.
    public static func text(of value: JSONValue) throws -> String {
        String(decoding: try bytes(of: value), as: UTF8.self)
    }

    private static func write(_ value: JSONValue, into output: inout [UInt8]) throws {
        switch value {
        case .string(let string): write(string, into: &output)
        case .number(let number): output.append(contentsOf: try self.number(number).utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.name.utf16.lexicographicallyPrecedes($1.name.utf16) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(member.name, into: &output)
                output.append(UInt8(ascii: ":"))
                try write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A string as RFC 8785 writes it (§3.2.2.2): ``JSONString``, which the server's own writer shares.
    private static func write(_ string: String, into output: inout [UInt8]) {
        JSONString.append(string, to: &output)
    }

    /// ECMAScript's Number::toString of a finite double (ECMA-262 §6.1.6.1.20), from the shortest decimal digits
    /// that read back as the same double (Swift's `description` gives those).
    static func number(_ value: Double) throws -> String {
        guard value.isFinite else { throw NonFiniteNumber() }
        if value == 0 { return "0" }
        if value < 0 { return "-" + (try number(-value)) }
        // value = 0.d₁d₂…d_k × 10^n, digits without leading or trailing zeros.
        let (digits, n) = shortestDigits(value)
        let k = digits.count
        if k <= n && n <= 21 { return String(digits) + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 { return String(digits.prefix(n)) + "." + String(digits.dropFirst(n)) }
        if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + String(digits) }
        let exponent = n - 1
        let mantissa = k == 1 ? String(digits) : String(digits.prefix(1)) + "." + String(digits.dropFirst())
        return mantissa + "e" + (exponent >= 0 ? "+" : "-") + String(abs(exponent))
    }

    /// The shortest round-trip digits of a positive finite double and where the decimal point goes after them
    /// (`n`: the value is `0.digits × 10^n`), read from Swift's `description` (`1.5`, `1e-05`, `1.2345e+20`).
    private static func shortestDigits(_ value: Double) -> (digits: [Character], n: Int) {
        let text = value.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = mantissa[0]
        let fraction = mantissa.count == 2 ? mantissa[1] : ""
        var digits = Array(whole + fraction)
        var point = whole.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        return (digits, point)
    }
}
