/// Where the data lives, from `--database`.
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)
    /// A PostgreSQL URL; several instances of the server can share it.
    case postgres(url: String, poolSize: Int)

    /// The default size of an instance's PostgreSQL connection pool.
    public static let defaultPoolSize = 16

    /// Parses `--database`: a `postgres://` (or `postgresql://`) URL, or a SQLite file path.
    public init(_ text: String, poolSize: Int = DatabaseLocation.defaultPoolSize) throws {
        guard !text.isEmpty else { throw ConfigurationError("--database needs a file path or a postgres:// URL") }
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            guard (1...500).contains(poolSize) else { throw ConfigurationError("--database-pool-size takes 1 to 500") }
            self = .postgres(url: text, poolSize: poolSize)
        } else {
            self = .sqlite(path: text)
        }
    }
}
