/// Hex decoding for test vectors.
enum Hex {
    static func bytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8? = nil
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: preconditionFailure("not hex: \(text)")
            }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        precondition(high == nil, "odd hex length")
        return out
    }
}
