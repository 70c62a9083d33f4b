/// Where the data lives, from `--database`.
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)

    /// Parses `--database`: a file path (SQLite).
    /// - Throws: ``ConfigurationError`` for a PostgreSQL URL, which this build does not support yet.
    public init(_ text: String) throws {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            throw ConfigurationError(
                "PostgreSQL is not supported by this build yet; use a SQLite file path for --database")
        }
        guard !text.isEmpty else { throw ConfigurationError("--database needs a file path") }
        self = .sqlite(path: text)
    }
}
