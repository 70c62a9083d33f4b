import Foundation
import Synchronization
import TouchstoneDomain

/// A clock that only moves when told to; for tests.
final class ManualClock: WallClock {
    private let current: Mutex<Date>

    init(_ start: Date = Date()) {
        current = Mutex(start)
    }

    func now() -> Date {
        current.withLock { $0 }
    }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}
