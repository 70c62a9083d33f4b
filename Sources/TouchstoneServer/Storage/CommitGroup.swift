import Synchronization

/// Writes that share one SQLite transaction and learn together whether it committed.
final class CommitGroup: Sendable {
    private enum State {
        case open(waiters: [CheckedContinuation<Void, any Error>], failure: (any Error)?)
        case finished(Result<Void, any Error>)
    }

    private let state = Mutex<State>(.open(waiters: [], failure: nil))

    /// Marks the group as unable to commit: it will be rolled back and every member fails.
    func fail(_ error: any Error) {
        state.withLock { state in
            if case .open(let waiters, nil) = state { state = .open(waiters: waiters, failure: error) }
        }
    }

    /// The first failure recorded by ``fail(_:)``.
    var failure: (any Error)? {
        state.withLock { state in
            if case .open(_, let failure) = state { return failure }
            return nil
        }
    }

    /// Records the outcome of the group's `COMMIT` and resumes every member waiting in ``committed()``.
    func finish(_ result: Result<Void, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard case .open(let waiters, _) = state else { return [] }
            state = .finished(result)
            return waiters
        }
        for waiter in waiters {
            waiter.resume(with: result)
        }
    }

    /// Returns once the group has committed; throws when it was rolled back.
    func committed() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let finished = state.withLock { state -> Result<Void, any Error>? in
                switch state {
                case .open(let waiters, let failure):
                    state = .open(waiters: waiters + [continuation], failure: failure)
                    return nil
                case .finished(let result):
                    return result
                }
            }
            if let finished { continuation.resume(with: finished) }
        }
    }
}
