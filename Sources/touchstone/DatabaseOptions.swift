import ArgumentParser
import TouchstoneServer
import TouchstoneStorage

/// `--database`, shared by every subcommand that touches the database.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "A SQLite file path, or a postgres://user:password@host:5432/database URL.")
    var database: String = "./touchstone.sqlite"

    @Option(help: "With PostgreSQL: the most connections this process opens.")
    var databasePoolSize: Int = DatabaseLocation.defaultPoolSize

    func location() throws -> DatabaseLocation {
        try DatabaseLocation(database, poolSize: databasePoolSize)
    }
}

/// `--json`, for subcommands that print.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object instead of text.")
    var json = false
}
