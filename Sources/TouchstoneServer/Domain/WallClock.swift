import Foundation
import Synchronization

/// The current time, injected so that tests can move it.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The system's clock.
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Date { Date() }
}

/// A clock that only moves when told to; for tests.
public final class ManualClock: WallClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date()) {
        current = Mutex(start)
    }

    public func now() -> Date {
        current.withLock { $0 }
    }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}
