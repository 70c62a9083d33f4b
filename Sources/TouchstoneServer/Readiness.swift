import Synchronization

/// A one-time signal that several services wait for (the database migrated): each waiter gets its own stream, which
/// finishes when the signal is given, or at once when it was given before.
final class Readiness: Sendable {
    private struct State {
        var given = false
        var waiting: [AsyncStream<Void>.Continuation] = []
    }

    private let state = Mutex(State())

    /// A stream that finishes once the signal is given.
    func waiter() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let given = state.withLock { state in
            if !state.given { state.waiting.append(continuation) }
            return state.given
        }
        if given { continuation.finish() }
        return stream
    }

    /// Gives the signal: every stream finishes.
    func give() {
        let waiting = state.withLock { state in
            state.given = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.finish() }
    }
}
