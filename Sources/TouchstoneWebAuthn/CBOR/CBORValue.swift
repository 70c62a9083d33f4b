/// One decoded CBOR data item, restricted to what WebAuthn uses: integers, byte and text strings, arrays, maps,
/// false, true and null.
public indirect enum CBORValue: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the negative integer `-1 - n`, holding `n` so that the full range survives.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3, valid UTF-8.
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, in the order received.
    case map(CBORMap)
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null

    /// The value as an `Int`, or nil when it is not an integer or does not fit.
    public var int: Int? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): return n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: return nil
        }
    }

    /// The bytes of a byte string, or nil.
    public var bytes: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    /// The text of a text string, or nil.
    public var text: String? {
        if case .text(let t) = self { return t }
        return nil
    }

    /// The elements of an array, or nil.
    public var array: [CBORValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The entries of a map, or nil.
    public var map: CBORMap? {
        if case .map(let m) = self { return m }
        return nil
    }
}
