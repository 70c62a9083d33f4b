import ArgumentParser
import TouchstoneDomain

extension AdminScope: ExpressibleByArgument {}

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Admin tokens: Bearer tokens of the admin API (serve --admin-port).",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an admin token; it is printed once, on the last line (only its SHA-256 is stored).")
        @Argument(help: "The token's name, unique among live tokens; audit events name it.") var name: String
        @Option(help: "read (look only) or write (also change).") var scope: AdminScope
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let created = try await withAdmin(database) {
                try await $0.tokens.create(name: name, scope: scope, by: .commandLine)
            }
            if output.json {
                try printJSON(created)
            } else {
                print("admin token \(created.name) (scope \(created.scope.rawValue)); it is shown only now:")
                print(created.token)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List admin tokens (never the tokens themselves).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let tokens = try await withAdmin(database) { try await $0.tokens.list() }
            if output.json {
                try printJSON(["tokens": tokens])
                return
            }
            for token in tokens {
                let used = token.lastUsedAt.map { "  last used \($0.rfc3339)" } ?? "  never used"
                let revoked = token.revokedAt.map { "  revoked \($0.rfc3339)" } ?? ""
                print("\(token.name)  \(token.scope.rawValue)  created \(token.createdAt.rfc3339)\(used)\(revoked)")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an admin token: it authenticates nothing more.")
        @Argument(help: "The token's name, from `token list`.") var name: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdmin(database) { try await $0.tokens.revoke(name: name, by: .commandLine) }
            print("admin token \(name) revoked")
        }
    }
}
