import Synchronization

/// One PostgreSQL step raced against its deadlines, in a child task of the provider's `run()`: the first of the step's
/// result, a deadline's verdict and the caller's cancellation answers the caller (``outcome``), and the step is then
/// cancelled. The caller does not wait for the step to end; `run()` does.
struct BoundedStep<T: Sendable>: Sendable {
    let outcome = StepOutcome<T>()
    private let lease = Lease()
    private let step: @Sendable (_ leased: @escaping @Sendable () -> Void) async throws -> T
    private let connectionWait: Duration
    private let holdLimit: Duration

    /// - Parameters:
    ///   - step: the work; it calls its argument once it holds a connection.
    ///   - connectionWait: how long it may wait for a connection.
    ///   - holdLimit: how long it may run once that wait is over, unless it lifts the bound (``Lease/unbound()``).
    init(
        step: @escaping @Sendable (_ leased: @escaping @Sendable () -> Void) async throws -> T, connectionWait: Duration,
        holdLimit: Duration
    ) {
        self.step = step
        self.connectionWait = connectionWait
        self.holdLimit = holdLimit
    }

    /// Runs the step and its deadlines until the outcome is decided, cancels what is left, and waits for it.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    let lease = lease
                    outcome.finish(.success(try await Lease.$current.withValue(lease) { try await step { lease.mark() } }))
                } catch {
                    outcome.finish(.failure(error))
                }
            }
            group.addTask {
                if let verdict = await deadlineVerdict() { outcome.finish(.failure(verdict)) }
            }
            await outcome.decided()
            group.cancelAll()
        }
    }

    /// Why the step is given up: no connection within the wait, or not done within the hold limit after it. `nil` when
    /// it lifted the bound, or when this was cancelled (the outcome was decided).
    private func deadlineVerdict() async -> PostgresDatabaseProvider.DatabaseUnavailable? {
        do {
            try await Task.sleep(for: connectionWait)
            guard lease.isMarked else { return .init(what: "gave no connection within \(connectionWait)") }
            try await Task.sleep(for: holdLimit)
            guard lease.isUnbounded else {
                return .init(what: "did not finish a step within \(connectionWait + holdLimit)", gaveUp: true)
            }
            return nil
        } catch {
            return nil
        }
    }
}

/// The answer of a bounded step: the first outcome resumes its caller, once; ``decided()`` tells the step's task.
final class StepOutcome<T: Sendable>: Sendable {
    private struct State {
        var caller: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var decidedWaiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Hands over the caller's continuation.
    /// - Returns: `false` when the outcome was decided before (the caller, already answered, was cancelled).
    func start(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let early: Result<T, any Error>? = state.withLock { state in
            if let result = state.result { return result }
            state.caller = continuation
            return nil
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Decides the outcome unless it is decided already.
    func finish(_ result: Result<T, any Error>) {
        let (caller, waiter) = state.withLock { state -> (CheckedContinuation<T, any Error>?, CheckedContinuation<Void, Never>?) in
            guard state.result == nil else { return (nil, nil) }
            state.result = result
            defer { state.caller = nil; state.decidedWaiter = nil }
            return (state.caller, state.decidedWaiter)
        }
        caller?.resume(with: result)
        waiter?.resume()
    }

    /// Waits until the outcome is decided.
    func decided() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                guard state.result == nil else { return true }
                state.decidedWaiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }
}
