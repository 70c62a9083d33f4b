import Synchronization

/// Work handed to a provider's `run()`: taken only while it runs, and refused at once before it starts and after it
/// ends, so that no caller waits for a loop that is not there.
///
/// The loop calls ``open()``, takes the work with ``next()`` until that answers `nil`, and calls ``close()`` when it is
/// asked to stop (and on every way out). Work queued before the close is still handed out.
final class RunQueue<Item: Sendable>: Sendable {
    /// Why an item was refused.
    enum Refusal: Error, CustomStringConvertible {
        /// The loop has not started yet.
        case notRunning
        /// The loop has been asked to stop, or has ended.
        case closed

        var description: String {
            switch self {
            case .notRunning: "is not running yet"
            case .closed: "is closed"
            }
        }
    }

    private enum Phase {
        case notStarted, running, closed
    }

    private struct State {
        var phase = Phase.notStarted
        var items: [Item] = []
        /// The loop, waiting in ``next()`` while nothing is queued.
        var taker: CheckedContinuation<[Item]?, Never>?
        /// Callers of ``started()``, by ticket.
        var startWaiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextTicket = 0
    }

    private let state = Mutex(State())

    /// Takes work from now on.
    /// - Throws: ``Refusal/closed`` when the loop ran before: a queue runs once.
    func open() throws(Refusal) {
        let waiters = try state.withLock { state throws(Refusal) in
            guard case .notStarted = state.phase else { throw .closed }
            state.phase = .running
            defer { state.startWaiters = [:] }
            return Array(state.startWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Refuses work from now on; what is queued is still handed out by ``next()``.
    func close() {
        let (taker, waiters) = state.withLock { state in
            state.phase = .closed
            defer { state.taker = nil; state.startWaiters = [:] }
            return (state.taker, Array(state.startWaiters.values))
        }
        taker?.resume(returning: nil)
        for waiter in waiters { waiter.resume(throwing: Refusal.closed) }
    }

    /// Queues `item` for the loop.
    /// - Throws: ``Refusal`` before ``open()`` and after ``close()``.
    func submit(_ item: Item) throws(Refusal) {
        let taker = try state.withLock { state throws(Refusal) -> CheckedContinuation<[Item]?, Never>? in
            switch state.phase {
            case .notStarted: throw .notRunning
            case .closed: throw .closed
            case .running: break
            }
            guard let taker = state.taker else {
                state.items.append(item)
                return nil
            }
            state.taker = nil
            return taker
        }
        taker?.resume(returning: [item])
    }

    /// Everything queued so far, waiting while nothing is; `nil` once the queue is closed and empty.
    func next() async -> [Item]? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [Item]?? in
                if !state.items.isEmpty {
                    defer { state.items = [] }
                    return .some(state.items)
                }
                if case .closed = state.phase { return .some(nil) }
                state.taker = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Waits until the loop takes work.
    /// - Throws: ``Refusal/closed`` when it ended first; `CancellationError` when the caller is cancelled first.
    func started() async throws {
        let ticket = state.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    switch state.phase {
                    case .running: return .success(())
                    case .closed: return .failure(Refusal.closed)
                    case .notStarted:
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.startWaiters[ticket] = continuation
                        return nil
                    }
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.startWaiters.removeValue(forKey: ticket) }?.resume(throwing: CancellationError())
        }
    }
}
