import ArgumentParser
import TouchstoneServer

/// `--database`, shared by every subcommand that touches the database.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "A SQLite file path.")
    var database: String = "./touchstone.sqlite"

    func location() throws -> DatabaseLocation {
        try DatabaseLocation(database)
    }
}

/// `--json`, for subcommands that print.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object instead of text.")
    var json = false
}
