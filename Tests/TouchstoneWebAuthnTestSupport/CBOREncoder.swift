@testable import TouchstoneWebAuthn

/// A CTAP2-canonical CBOR encoder, written for the tests only (the target never encodes CBOR).
public enum CBOREncoder {
    public static func encode(_ value: CBORValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    public static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let m = major << 5
        switch argument {
        case 0..<24: return [m | UInt8(argument)]
        case 24..<0x100: return [m | 24, UInt8(argument)]
        case 0x100..<0x1_0000: return [m | 25] + bigEndian(argument, 2)
        case 0x1_0000..<0x1_0000_0000: return [m | 26] + bigEndian(argument, 4)
        default: return [m | 27] + bigEndian(argument, 8)
        }
    }

    public static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    private static func append(_ value: CBORValue, to out: inout [UInt8]) {
        switch value {
        case .unsigned(let n): out += head(0, n)
        case .negative(let n): out += head(1, n)
        case .bytes(let b): out += head(2, UInt64(b.count)) + b
        case .text(let t): out += head(3, UInt64(t.utf8.count)) + Array(t.utf8)
        case .array(let a):
            out += head(4, UInt64(a.count))
            for element in a { append(element, to: &out) }
        case .map(let m):
            out += head(5, UInt64(m.count))
            let encoded = m.entries.map { (key: encode($0.key), value: encode($0.value)) }
                .sorted { CBORDecoder.canonicallyPrecedes($0.key[...], $1.key[...]) }
            for entry in encoded { out += entry.key + entry.value }
        case .bool(let b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        }
    }

    /// A map built from integer or text keys, for readability in tests.
    public static func map(_ pairs: [(CBORValue, CBORValue)]) -> CBORValue {
        .map(CBORMap(pairs.map { CBORMap.Entry(key: $0.0, value: $0.1) }))
    }

    /// `CBORValue` for a Swift `Int`.
    public static func int(_ n: Int) -> CBORValue {
        n >= 0 ? .unsigned(UInt64(n)) : .negative(UInt64(-1 - n))
    }
}
