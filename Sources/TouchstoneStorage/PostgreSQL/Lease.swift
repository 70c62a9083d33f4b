import Synchronization

/// Whether a step got its connection, and whether it lifted the bound on how long it may hold it.
final class Lease: Sendable {
    /// The lease of the step running in this task.
    @TaskLocal static var current: Lease?

    private let leased = Atomic<Bool>(false)
    private let unbounded = Atomic<Bool>(false)

    var isMarked: Bool { leased.load(ordering: .acquiring) }
    var isUnbounded: Bool { unbounded.load(ordering: .acquiring) }

    func mark() {
        leased.store(true, ordering: .releasing)
    }

    func unbound() {
        unbounded.store(true, ordering: .releasing)
    }
}
