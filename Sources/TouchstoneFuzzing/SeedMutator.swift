/// Unguided mutations of seed inputs: the smoke run of the fuzz targets in an ordinary build, where libFuzzer (which
/// needs `scripts/fuzz`'s instrumented build) is not at hand. Each input is a seed changed one to eight times by the
/// kinds of change libFuzzer makes (bit flips, boundary bytes, inserted, erased and repeated runs, splices of two
/// seeds); the same `seed` gives the same inputs, so a crash is replayed by running again with it.
public struct SeedMutator {
    private let seeds: [[UInt8]]
    private var random: SplitMix64
    private let maximumLength: Int

    /// - Parameters:
    ///   - seeds: the inputs to start from; with none, inputs grow from empty.
    ///   - seed: what makes the sequence of inputs.
    ///   - maximumLength: the longest input made (as `scripts/fuzz`'s `-max_len`).
    public init(seeds: [[UInt8]], seed: UInt64, maximumLength: Int = 16_384) {
        self.seeds = seeds
        random = SplitMix64(state: seed)
        self.maximumLength = maximumLength
    }

    /// The next input.
    public mutating func next() -> [UInt8] {
        var input = seeds.isEmpty ? [] : seeds[Int.random(in: 0..<seeds.count, using: &random)]
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            mutate(&input)
        }
        if input.count > maximumLength { input.removeLast(input.count - maximumLength) }
        return input
    }

    /// Bytes that sit on the boundaries parsers test: CBOR's length encodings and break, ASN.1's long form, signs.
    private static let boundaryBytes: [UInt8] = [0x00, 0x01, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1f, 0x7f, 0x80, 0x81, 0x82, 0xff]

    private mutating func mutate(_ input: inout [UInt8]) {
        guard !input.isEmpty else {
            input.append(UInt8.random(in: .min ... .max, using: &random))
            return
        }
        let at = Int.random(in: 0..<input.count, using: &random)
        switch Int.random(in: 0..<7, using: &random) {
        case 0:
            input[at] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 1:
            input[at] = Self.boundaryBytes[Int.random(in: 0..<Self.boundaryBytes.count, using: &random)]
        case 2:
            input[at] = UInt8.random(in: .min ... .max, using: &random)
        case 3:
            let bytes = (0..<Int.random(in: 1...4, using: &random)).map { _ in UInt8.random(in: .min ... .max, using: &random) }
            input.insert(contentsOf: bytes, at: at)
        case 4:
            input.removeSubrange(at..<min(input.count, at + Int.random(in: 1...16, using: &random)))
        case 5:
            let run = input[at..<min(input.count, at + Int.random(in: 1...32, using: &random))]
            input.insert(contentsOf: run, at: Int.random(in: 0...input.count, using: &random))
        default:
            // A splice: this input's head, another seed's tail.
            guard let other = seeds.isEmpty ? nil : seeds[Int.random(in: 0..<seeds.count, using: &random)], !other.isEmpty
            else { return }
            input = Array(input[..<at]) + other[Int.random(in: 0..<other.count, using: &random)...]
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small generator whose sequence a seed fixes, on every platform.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
