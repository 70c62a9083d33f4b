import Synchronization

/// Tells requests that may wait long (an inbox's long poll) that the server is stopping, so that they answer with what
/// they have instead of holding the graceful shutdown up. The server begins it when a shutdown signal arrives, before
/// it waits for the requests in flight.
package final class ShutdownNotice: Sendable {
    private let begun = Atomic<Bool>(false)

    package init() {}

    package func begin() {
        begun.store(true, ordering: .relaxed)
    }

    package var hasBegun: Bool { begun.load(ordering: .relaxed) }
}
