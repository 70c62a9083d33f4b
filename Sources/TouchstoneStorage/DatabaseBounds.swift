/// PostgreSQL only: how long one database step may take. Past either bound the request fails (503) instead of
/// queueing while the database is unreachable; the wait for a connection is bounded apart, and more loosely, so that a
/// loaded pool or a connection being opened does not fail healthy requests.
public struct DatabaseBounds: Sendable, Equatable {
    /// The longest a step may wait for a pooled connection (opening one may take up to 5 s).
    public var connectionWait: Duration = .seconds(10)
    /// The longest one statement may run (PostgreSQL's `statement_timeout`).
    public var stepTimeout: Duration = .seconds(3)

    public init() {}
}
