/// A strict decoder for the CBOR that WebAuthn carries: attestation objects, COSE keys and authenticator extensions.
///
/// It accepts major types 0–5 and the simple values false, true and null, with definite lengths only, every
/// integer and length in its shortest form, unique integer or text map keys (in CTAP2 canonical order unless
/// ``requiresCanonicalMapOrder`` is false), bounded nesting and size, and nothing after the item. Anything else —
/// tags, floats, undefined, indefinite lengths, invalid UTF-8 — is refused with a ``CBORError``; it never traps.
public struct CBORDecoder: Sendable {
    /// Resource bounds applied while decoding.
    public struct Limits: Sendable, Hashable {
        /// The deepest nesting of arrays and maps accepted.
        public var maximumDepth: Int
        /// The largest input accepted, in bytes.
        public var maximumSize: Int

        public init(maximumDepth: Int, maximumSize: Int) {
            self.maximumDepth = maximumDepth
            self.maximumSize = maximumSize
        }

        /// 16 levels, 64 KiB: room for any attestation object with a certificate chain.
        public static let `default` = Limits(maximumDepth: 16, maximumSize: 64 * 1024)
    }

    /// The bounds applied.
    public var limits: Limits
    /// Whether map keys must appear in CTAP2 canonical order (by major type, then encoded length, then bytes).
    public var requiresCanonicalMapOrder: Bool

    /// - Parameters:
    ///   - limits: the depth and size bounds.
    ///   - requiresCanonicalMapOrder: keep true for CTAP2 structures (attestation objects, COSE keys, extensions).
    public init(limits: Limits = .default, requiresCanonicalMapOrder: Bool = true) {
        self.limits = limits
        self.requiresCanonicalMapOrder = requiresCanonicalMapOrder
    }

    /// Decodes exactly one item that spans all of `bytes`.
    /// - Throws: ``CBORError`` (``CBORError/Code/trailingBytes`` when bytes follow the item).
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes, from: 0)
        guard end == bytes.count else { throw CBORError(.trailingBytes, offset: end) }
        return value
    }

    /// Decodes one item that starts at `start` and may be followed by other bytes.
    /// - Returns: the item and the offset just after it.
    /// - Throws: ``CBORError``.
    public func decodePrefix(_ bytes: [UInt8], from start: Int) throws(CBORError) -> (value: CBORValue, end: Int) {
        guard bytes.count <= limits.maximumSize else { throw CBORError(.sizeLimitExceeded, offset: 0) }
        guard start >= 0, start <= bytes.count else { throw CBORError(.truncated, offset: start) }
        var position = start
        let value = try item(bytes, &position, depth: 0)
        return (value, position)
    }

    // MARK: - Items

    private func item(_ bytes: [UInt8], _ position: inout Int, depth: Int) throws(CBORError) -> CBORValue {
        let start = position
        guard position < bytes.count else { throw CBORError(.truncated, offset: start) }
        let initial = bytes[position]
        position += 1
        let major = initial >> 5
        let info = initial & 0x1f
        if major == 7 { return try simple(info, bytes, &position, start: start) }
        let argument = try self.argument(info, bytes, &position, start: start)
        switch major {
        case 0:
            return .unsigned(argument)
        case 1:
            return .negative(argument)
        case 2:
            let range = try span(argument, bytes, position, start: start)
            position = range.upperBound
            return .bytes(Array(bytes[range]))
        case 3:
            let range = try span(argument, bytes, position, start: start)
            position = range.upperBound
            let slice = bytes[range]
            let text = String(decoding: slice, as: UTF8.self)
            guard text.utf8.elementsEqual(slice) else { throw CBORError(.invalidUTF8, offset: start) }
            return .text(text)
        case 4:
            guard depth < limits.maximumDepth else { throw CBORError(.depthLimitExceeded, offset: start) }
            // Every element takes at least one byte: a larger count cannot be satisfied.
            guard argument <= UInt64(bytes.count - position) else { throw CBORError(.truncated, offset: start) }
            var elements: [CBORValue] = []
            elements.reserveCapacity(Int(argument))
            for _ in 0..<argument {
                elements.append(try item(bytes, &position, depth: depth + 1))
            }
            return .array(elements)
        case 5:
            guard depth < limits.maximumDepth else { throw CBORError(.depthLimitExceeded, offset: start) }
            // Every entry takes at least two bytes.
            guard argument <= UInt64(bytes.count - position) / 2 else { throw CBORError(.truncated, offset: start) }
            return .map(try map(count: Int(argument), bytes, &position, depth: depth))
        default:
            throw CBORError(.tagNotSupported, offset: start)
        }
    }

    private func map(count: Int, _ bytes: [UInt8], _ position: inout Int, depth: Int) throws(CBORError) -> CBORMap {
        var entries: [CBORMap.Entry] = []
        entries.reserveCapacity(count)
        var previousKey: ArraySlice<UInt8>? = nil
        var seenKeys: Set<ArraySlice<UInt8>> = []
        for _ in 0..<count {
            let keyStart = position
            let key = try item(bytes, &position, depth: depth + 1)
            switch key {
            case .unsigned, .negative, .text: break
            default: throw CBORError(.mapKeyNotSupported, offset: keyStart)
            }
            // Integers and text have exactly one shortest encoding, so equal encodings mean equal keys.
            let encodedKey = bytes[keyStart..<position]
            if requiresCanonicalMapOrder {
                if let previousKey {
                    if previousKey.elementsEqual(encodedKey) { throw CBORError(.duplicateMapKey, offset: keyStart) }
                    guard Self.canonicallyPrecedes(previousKey, encodedKey) else {
                        throw CBORError(.mapKeysNotCanonical, offset: keyStart)
                    }
                }
                previousKey = encodedKey
            } else {
                guard seenKeys.insert(encodedKey).inserted else { throw CBORError(.duplicateMapKey, offset: keyStart) }
            }
            let value = try item(bytes, &position, depth: depth + 1)
            entries.append(CBORMap.Entry(key: key, value: value))
        }
        return CBORMap(entries)
    }

    /// CTAP2 canonical order: lower major type first, then shorter encoding, then lower bytes.
    static func canonicallyPrecedes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        let majorA = (a.first ?? 0) >> 5
        let majorB = (b.first ?? 0) >> 5
        if majorA != majorB { return majorA < majorB }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }

    private func simple(_ info: UInt8, _ bytes: [UInt8], _ position: inout Int, start: Int) throws(CBORError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 24:
            guard position < bytes.count else { throw CBORError(.truncated, offset: start) }
            let value = bytes[position]
            position += 1
            // Values below 32 must use the one-byte form (RFC 8949 §3.3).
            throw CBORError(value < 32 ? .nonMinimalEncoding : .simpleValueNotSupported, offset: start)
        case 25, 26, 27: throw CBORError(.floatNotSupported, offset: start)
        case 28, 29, 30: throw CBORError(.reservedAdditionalInformation, offset: start)
        case 31: throw CBORError(.indefiniteLength, offset: start)
        default: throw CBORError(.simpleValueNotSupported, offset: start)
        }
    }

    /// Reads the argument that follows the initial byte, refusing reserved, indefinite and non-shortest forms.
    private func argument(_ info: UInt8, _ bytes: [UInt8], _ position: inout Int, start: Int) throws(CBORError) -> UInt64 {
        let width: Int
        let minimum: UInt64
        switch info {
        case 0..<24: return UInt64(info)
        case 24: (width, minimum) = (1, 24)
        case 25: (width, minimum) = (2, 0x100)
        case 26: (width, minimum) = (4, 0x1_0000)
        case 27: (width, minimum) = (8, 0x1_0000_0000)
        case 31: throw CBORError(.indefiniteLength, offset: start)
        default: throw CBORError(.reservedAdditionalInformation, offset: start)
        }
        guard bytes.count - position >= width else { throw CBORError(.truncated, offset: start) }
        var value: UInt64 = 0
        for index in position..<(position + width) {
            value = value << 8 | UInt64(bytes[index])
        }
        position += width
        guard value >= minimum else { throw CBORError(.nonMinimalEncoding, offset: start) }
        return value
    }

    /// The range of a string's content, after checking that it fits in the input.
    private func span(_ length: UInt64, _ bytes: [UInt8], _ position: Int, start: Int) throws(CBORError) -> Range<Int> {
        guard length <= UInt64(bytes.count - position) else { throw CBORError(.truncated, offset: start) }
        return position..<(position + Int(length))
    }
}
