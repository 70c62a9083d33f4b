import Synchronization
import TouchstoneDomain

/// A random source that repeats itself: SplitMix64 from a seed, so that a test can pin the ids and tokens a server
/// draws. Never for a server: anyone who knows the seed knows every secret.
final class SeededRandom: RandomSource {
    private let state: Mutex<UInt64>

    init(seed: UInt64) {
        state = Mutex(seed)
    }

    func next() -> UInt64 {
        state.withLock { state in
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }
}
