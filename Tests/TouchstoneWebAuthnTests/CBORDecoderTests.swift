import Testing
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

@Suite struct CBORDecoderTests {
    let decoder = CBORDecoder()

    func code(_ bytes: [UInt8], _ decoder: CBORDecoder = CBORDecoder()) -> CBORError.Code? {
        let error = #expect(throws: CBORError.self) { try decoder.decode(bytes) }
        return error?.code
    }

    @Test func decodesIntegersAtEveryWidthBoundary() throws {
        let cases: [([UInt8], CBORValue)] = [
            ([0x00], .unsigned(0)), ([0x17], .unsigned(23)), ([0x18, 0x18], .unsigned(24)),
            ([0x18, 0xff], .unsigned(255)), ([0x19, 0x01, 0x00], .unsigned(256)),
            ([0x19, 0xff, 0xff], .unsigned(65535)), ([0x1a, 0x00, 0x01, 0x00, 0x00], .unsigned(65536)),
            ([0x1a, 0xff, 0xff, 0xff, 0xff], .unsigned(0xffff_ffff)),
            ([0x1b, 0, 0, 0, 1, 0, 0, 0, 0], .unsigned(0x1_0000_0000)),
            ([0x1b] + [UInt8](repeating: 0xff, count: 8), .unsigned(.max)),
            ([0x20], .negative(0)), ([0x37], .negative(23)), ([0x38, 0x18], .negative(24)),
            ([0x3b] + [UInt8](repeating: 0xff, count: 8), .negative(.max)),
        ]
        for (bytes, expected) in cases {
            #expect(try decoder.decode(bytes) == expected)
        }
    }

    @Test func integerAccessorNeverOverflows() {
        #expect(CBORValue.negative(0).int == -1)
        #expect(CBORValue.negative(UInt64(Int.max)).int == Int.min)
        #expect(CBORValue.negative(UInt64(Int.max) + 1).int == nil)
        #expect(CBORValue.negative(.max).int == nil)
        #expect(CBORValue.unsigned(UInt64(Int.max)).int == Int.max)
        #expect(CBORValue.unsigned(.max).int == nil)
        #expect(CBORValue.text("1").int == nil)
    }

    @Test func decodesStringsArraysMapsAndSimpleValues() throws {
        #expect(try decoder.decode([0x43, 1, 2, 3]) == .bytes([1, 2, 3]))
        #expect(try decoder.decode([0x40]) == .bytes([]))
        #expect(try decoder.decode([0x63, 0x66, 0x6d, 0x74]) == .text("fmt"))
        #expect(try decoder.decode([0x62, 0xc3, 0xa9]) == .text("é"))
        #expect(try decoder.decode([0x82, 0x01, 0x20]) == .array([.unsigned(1), .negative(0)]))
        #expect(try decoder.decode([0xf4]) == .bool(false))
        #expect(try decoder.decode([0xf5]) == .bool(true))
        #expect(try decoder.decode([0xf6]) == .null)
        let map = try decoder.decode([0xa3, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01])
        #expect(map.map?[int: 1] == .unsigned(2))
        #expect(map.map?[int: 3]?.int == -7)
        #expect(map.map?[int: -1]?.int == 1)
        #expect(map.map?[int: 2] == nil)
        let textMap = try decoder.decode([0xa2, 0x61, 0x61, 0x01, 0x62, 0x61, 0x61, 0x02])
        #expect(textMap.map?[text: "aa"] == .unsigned(2))
    }

    @Test func decodePrefixReportsWhereTheItemEnds() throws {
        let (value, end) = try decoder.decodePrefix([0xff, 0x82, 0x01, 0x02, 0xee], from: 1)
        #expect(value == .array([.unsigned(1), .unsigned(2)]))
        #expect(end == 4)
        #expect(throws: CBORError(.truncated, offset: 6)) { try decoder.decodePrefix([0x00], from: 6) }
    }

    @Test func refusesTruncatedInputWithoutAllocatingTheClaimedLength() {
        #expect(code([]) == .truncated)
        #expect(code([0x18]) == .truncated)
        #expect(code([0x19, 0x01]) == .truncated)
        #expect(code([0x42, 0x00]) == .truncated)
        #expect(code([0x82, 0x01]) == .truncated)
        #expect(code([0xa1, 0x01]) == .truncated)
        #expect(code([0x5b] + [UInt8](repeating: 0xff, count: 8)) == .truncated)
        #expect(code([0x7b] + [UInt8](repeating: 0xff, count: 8)) == .truncated)
        #expect(code([0x9b] + [UInt8](repeating: 0xff, count: 8)) == .truncated)
        #expect(code([0xbb] + [UInt8](repeating: 0xff, count: 8)) == .truncated)
        #expect(code([0xa2, 0x01, 0x02, 0x03]) == .truncated)
        #expect(code([0x83, 0x01, 0x02]) == .truncated)
    }

    @Test func refusesTrailingBytes() {
        #expect(code([0x01, 0x02]) == .trailingBytes)
        #expect(code([0xa0, 0x00]) == .trailingBytes)
    }

    @Test func refusesNonShortestEncodings() {
        #expect(code([0x18, 0x17]) == .nonMinimalEncoding)
        #expect(code([0x19, 0x00, 0xff]) == .nonMinimalEncoding)
        #expect(code([0x1a, 0x00, 0x00, 0xff, 0xff]) == .nonMinimalEncoding)
        #expect(code([0x1b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]) == .nonMinimalEncoding)
        #expect(code([0x38, 0x00]) == .nonMinimalEncoding)
        #expect(code([0x58, 0x01, 0x00]) == .nonMinimalEncoding)
        #expect(code([0x79, 0x00, 0x01, 0x61]) == .nonMinimalEncoding)
        #expect(code([0x98, 0x01, 0x00]) == .nonMinimalEncoding)
        #expect(code([0xb8, 0x00]) == .nonMinimalEncoding)
        #expect(code([0xf8, 0x14]) == .nonMinimalEncoding)
    }

    @Test func refusesIndefiniteLengthsAndBreaks() {
        #expect(code([0x5f, 0x41, 0x00, 0xff]) == .indefiniteLength)
        #expect(code([0x7f, 0x61, 0x61, 0xff]) == .indefiniteLength)
        #expect(code([0x9f, 0xff]) == .indefiniteLength)
        #expect(code([0xbf, 0xff]) == .indefiniteLength)
        #expect(code([0xff]) == .indefiniteLength)
        #expect(code([0x1f]) == .indefiniteLength)
    }

    @Test func refusesReservedAdditionalInformation() {
        for info: UInt8 in 28...30 {
            #expect(code([info]) == .reservedAdditionalInformation)
            #expect(code([0xe0 | info]) == .reservedAdditionalInformation)
        }
    }

    @Test func refusesTagsFloatsAndOtherSimpleValues() {
        #expect(code([0xc0, 0x00]) == .tagNotSupported)
        #expect(code([0xd8, 0x18, 0x40]) == .tagNotSupported)
        #expect(code([0xf9, 0x3c, 0x00]) == .floatNotSupported)
        #expect(code([0xfa, 0x3f, 0x80, 0x00, 0x00]) == .floatNotSupported)
        #expect(code([0xfb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0]) == .floatNotSupported)
        #expect(code([0xf7]) == .simpleValueNotSupported)
        #expect(code([0xe0]) == .simpleValueNotSupported)
        #expect(code([0xf8, 0x20]) == .simpleValueNotSupported)
    }

    @Test func refusesInvalidUTF8() {
        #expect(code([0x62, 0xc3, 0x28]) == .invalidUTF8)
        #expect(code([0x61, 0xff]) == .invalidUTF8)
        #expect(code([0x63, 0xed, 0xa0, 0x80]) == .invalidUTF8)  // a UTF-16 surrogate
        #expect(code([0x62, 0xc0, 0x80]) == .invalidUTF8)  // overlong NUL
    }

    @Test func refusesMapKeysThatAreNotIntegersOrText() {
        #expect(code([0xa1, 0x40, 0x00]) == .mapKeyNotSupported)
        #expect(code([0xa1, 0xf5, 0x00]) == .mapKeyNotSupported)
        #expect(code([0xa1, 0x80, 0x00]) == .mapKeyNotSupported)
        #expect(code([0xa1, 0xa0, 0x00]) == .mapKeyNotSupported)
    }

    @Test func refusesDuplicateKeysInBothModes() {
        let lenient = CBORDecoder(requiresCanonicalMapOrder: false)
        for d in [decoder, lenient] {
            #expect(code([0xa2, 0x01, 0x00, 0x01, 0x01], d) == .duplicateMapKey)
            #expect(code([0xa2, 0x61, 0x61, 0x00, 0x61, 0x61, 0x01], d) == .duplicateMapKey)
        }
        #expect(code([0xa3, 0x01, 0x00, 0x02, 0x00, 0x01, 0x00], lenient) == .duplicateMapKey)
    }

    @Test func enforcesCTAP2CanonicalKeyOrderUnlessToldNotTo() throws {
        let lenient = CBORDecoder(requiresCanonicalMapOrder: false)
        let outOfOrder: [[UInt8]] = [
            [0xa2, 0x02, 0x00, 0x01, 0x00],  // 2 before 1
            [0xa2, 0x20, 0x00, 0x01, 0x00],  // -1 (major type 1) before 1 (major type 0)
            [0xa2, 0x18, 0x18, 0x00, 0x17, 0x00],  // 24 (two bytes) before 23 (one byte)
            [0xa2, 0x38, 0x18, 0x00, 0x18, 0x18, 0x00],  // -25 before 24: major type decides before length
            [0xa2, 0x62, 0x61, 0x61, 0x00, 0x61, 0x62, 0x00],  // "aa" before "b": shorter first
            [0xa2, 0x61, 0x62, 0x00, 0x61, 0x61, 0x00],  // "b" before "a"
            [0xa2, 0x61, 0x61, 0x00, 0x01, 0x00],  // text before integer
        ]
        for bytes in outOfOrder {
            #expect(code(bytes) == .mapKeysNotCanonical)
            #expect(throws: Never.self) { try lenient.decode(bytes) }
        }
        // Nested maps are held to the same rule.
        #expect(code([0xa1, 0x01, 0xa2, 0x02, 0x00, 0x01, 0x00]) == .mapKeysNotCanonical)
        #expect(try decoder.decode([0xa4, 0x01, 0x00, 0x18, 0x18, 0x00, 0x20, 0x00, 0x61, 0x61, 0x00]).map?.count == 4)
    }

    @Test func limitsNestingDepth() throws {
        let sixteen = [UInt8](repeating: 0x81, count: 16) + [0x00]
        #expect(throws: Never.self) { try decoder.decode(sixteen) }
        #expect(code([UInt8](repeating: 0x81, count: 17) + [0x00]) == .depthLimitExceeded)
        #expect(code([0xa1] + Self.nestedMaps(16)) == .depthLimitExceeded)
        #expect(throws: Never.self) { try decoder.decode([0xa1] + Self.nestedMaps(15)) }
        // Deep nesting costs no stack: a million levels fail at the limit.
        #expect(code([UInt8](repeating: 0x81, count: 1_000_000)) == .sizeLimitExceeded)
        let big = CBORDecoder(limits: .init(maximumDepth: 16, maximumSize: 2_000_000))
        #expect(code([UInt8](repeating: 0x81, count: 1_000_000), big) == .depthLimitExceeded)
    }

    static func nestedMaps(_ depth: Int) -> [UInt8] {
        // {0: {0: … 0}} with `depth` maps inside the outer one.
        var bytes: [UInt8] = []
        for _ in 0..<depth { bytes += [0x00, 0xa1] }
        return bytes + [0x00, 0x00]
    }

    @Test func limitsInputSize() {
        let small = CBORDecoder(limits: .init(maximumDepth: 16, maximumSize: 4))
        #expect(code([0x44, 1, 2, 3, 4], small) == .sizeLimitExceeded)
        #expect(throws: Never.self) { try small.decode([0x43, 1, 2, 3]) }
    }

    @Test func roundTripsRandomValuesThroughTheTestEncoder() throws {
        var rng = SplitMix64(seed: 0x5eed_cb0e)
        for _ in 0..<3_000 {
            let value = Self.randomValue(&rng, depth: 0)
            let encoded = CBOREncoder.encode(value)
            let decoded = try decoder.decode(encoded)
            #expect(CBOREncoder.encode(decoded) == encoded)
            #expect(decoded == Self.canonicalized(value))
        }
    }

    /// Fuzzing: random bytes and mutations of valid encodings. The decoder must never trap or hang, must throw only
    /// `CBORError`, and whatever it accepts must re-encode to exactly the input (it accepts canonical form only).
    @Test func fuzzRandomAndMutatedInputs() {
        var rng = SplitMix64(seed: 0xf022_cb0e)
        var seeds: [[UInt8]] = (0..<256).map { _ in CBOREncoder.encode(Self.randomValue(&rng, depth: 0)) }
        seeds.append([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x42, 0, 0, 0x22, 0x42, 0, 0])
        var accepted = 0
        var refused = 0
        var mismatches = 0
        for iteration in 0..<200_000 {
            var input: [UInt8]
            if iteration % 4 == 0 {
                input = rng.bytes(Int.random(in: 0...48, using: &rng))
            } else {
                input = seeds[Int.random(in: 0..<seeds.count, using: &rng)]
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    Self.mutate(&input, &rng)
                }
            }
            do {
                let value = try decoder.decode(input)
                accepted += 1
                if CBOREncoder.encode(value) != input { mismatches += 1 }
            } catch {
                refused += 1
            }
        }
        #expect(accepted + refused == 200_000)
        #expect(accepted > 1_000)
        #expect(refused > 100_000)
        #expect(mismatches == 0)
    }

    static func mutate(_ input: inout [UInt8], _ rng: inout SplitMix64) {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0 where !input.isEmpty:
            input[Int.random(in: 0..<input.count, using: &rng)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
        case 1 where !input.isEmpty:
            input[Int.random(in: 0..<input.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
        case 2:
            input.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...input.count, using: &rng))
        case 3 where !input.isEmpty:
            input.remove(at: Int.random(in: 0..<input.count, using: &rng))
        case 4 where !input.isEmpty:
            input.removeLast(Int.random(in: 1...input.count, using: &rng))
        default:
            let interesting: [UInt8] = [0x1b, 0x5b, 0x7b, 0x9b, 0xbb, 0x9f, 0xbf, 0xff, 0xf7, 0xc0, 0x81, 0xa1]
            input.insert(interesting.randomElement(using: &rng) ?? 0, at: Int.random(in: 0...input.count, using: &rng))
        }
    }

    static func randomValue(_ rng: inout SplitMix64, depth: Int) -> CBORValue {
        let choice = Int.random(in: 0..<(depth < 4 ? 9 : 7), using: &rng)
        switch choice {
        case 0: return .unsigned(randomInteger(&rng))
        case 1: return .negative(randomInteger(&rng))
        case 2: return .bytes(rng.bytes(Int.random(in: 0...40, using: &rng)))
        case 3:
            let scalars = ["a", "é", "€", "𝄞", "z", "0", " "]
            return .text((0..<Int.random(in: 0...6, using: &rng)).map { _ in scalars.randomElement(using: &rng) ?? "" }.joined())
        case 4: return .bool(Bool.random(using: &rng))
        case 5: return .null
        case 6: return .unsigned(UInt64.random(in: 0...30, using: &rng))
        case 7: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var entries: [CBORMap.Entry] = []
            var keys: Set<CBORValue> = []
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let key: CBORValue = Bool.random(using: &rng)
                    ? CBOREncoder.int(Int.random(in: -300...300, using: &rng))
                    : .text(String(repeating: "k", count: Int.random(in: 0...3, using: &rng)))
                guard keys.insert(key).inserted else { continue }
                entries.append(.init(key: key, value: randomValue(&rng, depth: depth + 1)))
            }
            return .map(CBORMap(entries))
        }
    }

    static func randomInteger(_ rng: inout SplitMix64) -> UInt64 {
        let widths: [UInt64] = [23, 24, 0xff, 0x100, 0xffff, 0x1_0000, 0xffff_ffff, 0x1_0000_0000, .max]
        return UInt64.random(in: 0...(widths.randomElement(using: &rng) ?? 0), using: &rng)
    }

    /// The same value with every map's entries in canonical order, as the decoder returns them.
    static func canonicalized(_ value: CBORValue) -> CBORValue {
        switch value {
        case .array(let a): return .array(a.map(canonicalized))
        case .map(let m):
            let sorted = m.entries
                .map { CBORMap.Entry(key: $0.key, value: canonicalized($0.value)) }
                .sorted { CBORDecoder.canonicallyPrecedes(CBOREncoder.encode($0.key)[...], CBOREncoder.encode($1.key)[...]) }
            return .map(CBORMap(sorted))
        default: return value
        }
    }
}
