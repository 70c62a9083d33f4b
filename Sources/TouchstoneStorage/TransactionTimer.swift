import Metrics

/// `touchstone_db_transaction_duration_seconds`: how long the database's transactions take until they are durable. On
/// SQLite a group commit is one transaction (``GroupCommitWriter``), whatever it holds, timed from its `BEGIN`; on
/// PostgreSQL each transaction is timed from asking the pool for its connection, so a starved pool shows here.
package struct TransactionTimer: Sendable {
    private let timer: CoreMetrics.Timer

    package init(factory: any MetricsFactory) {
        timer = Timer(label: "touchstone_db_transaction_duration_seconds", factory: factory)
    }

    /// Records the time since `start`.
    func record(since start: ContinuousClock.Instant) {
        timer.record(duration: ContinuousClock.now - start)
    }
}
