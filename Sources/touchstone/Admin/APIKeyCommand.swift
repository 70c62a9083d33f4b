import ArgumentParser
import Foundation
import TouchstoneDomain
import TouchstoneProtocol
import TouchstoneStorage

struct APIKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-key", abstract: "API keys for relying services.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an API key; it is printed once, on the last line.")
        @Argument(help: "The app the key belongs to.") var clientId: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let created = try await withAdmin(database) { try await $0.apps.createAPIKey(clientId, by: .commandLine) }
            print("API key \(created.keyId) for \(clientId); it is shown only now:")
            print(created.apiKey)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List API keys (never the keys themselves).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let keys = try await withAdmin(database) { try await $0.apps.allAPIKeys() }
            if output.json {
                try printJSON(["apiKeys": keys])
                return
            }
            for key in keys {
                print("\(key.id)  \(key.clientId)  created \(key.createdAt.rfc3339)\(key.revokedAt.map { "  revoked \($0.rfc3339)" } ?? "")")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an API key.")
        @Argument(help: "The key's id, from `api-key list`.") var id: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdmin(database) { try await $0.apps.revokeAPIKey(id: id, by: .commandLine) }
            print("API key \(id) revoked")
        }
    }
}
