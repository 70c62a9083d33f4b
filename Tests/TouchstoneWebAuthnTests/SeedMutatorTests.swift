import Testing
import TouchstoneFuzzing

/// The mutations of the fuzz smoke run (`touchstone-fuzz TARGET --mutate`): a printed seed must replay the same
/// inputs, and the inputs must be the seeds changed, within the length bound.
@Suite struct SeedMutatorTests {
    static let seeds: [[UInt8]] = [Array("{\"deviceId\":\"a\",\"purpose\":\"login\"}".utf8), [0xa1, 0x01, 0x02], []]

    static func inputs(seed: UInt64, count: Int = 500, maximumLength: Int = 16_384) -> [[UInt8]] {
        var mutator = SeedMutator(seeds: seeds, seed: seed, maximumLength: maximumLength)
        return (0..<count).map { _ in mutator.next() }
    }

    @Test func theSameSeedMakesTheSameInputsAndAnotherSeedOthers() {
        #expect(Self.inputs(seed: 42) == Self.inputs(seed: 42))
        #expect(Self.inputs(seed: 42) != Self.inputs(seed: 43))
    }

    @Test func inputsAreChangedSeedsOfManyShapes() {
        let inputs = Self.inputs(seed: 7, count: 2_000)
        let changed = inputs.filter { !Self.seeds.contains($0) }
        // A mutation can undo another; nearly every input still differs from every seed.
        #expect(changed.count > 1_900, "\(changed.count) of 2,000 differ from the seeds")
        #expect(Set(inputs.map(\.count)).count > 20, "lengths vary: shorter, longer and spliced inputs")
        #expect(inputs.contains { $0.count > Self.seeds[0].count }, "bytes are inserted")
        #expect(inputs.contains { !$0.isEmpty && $0.count < Self.seeds[1].count }, "bytes are erased")
    }

    @Test func noInputIsLongerThanTheBound() {
        #expect(Self.inputs(seed: 3, count: 2_000, maximumLength: 8).allSatisfy { $0.count <= 8 })
    }

    @Test func withoutSeedsInputsGrowFromEmpty() {
        var mutator = SeedMutator(seeds: [], seed: 1)
        let inputs = (0..<100).map { _ in mutator.next() }
        #expect(inputs.contains { !$0.isEmpty })
    }
}
