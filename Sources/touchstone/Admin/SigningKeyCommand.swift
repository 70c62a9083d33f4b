import ArgumentParser
import Foundation
import TouchstoneDomain
import TouchstoneProtocol
import TouchstoneStorage

struct SigningKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing-key", abstract: "The server's token-signing keys.", subcommands: [Rotate.self])

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a new signing key now; servers sign with it ten minutes later.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let (kid, activatesAt) = try await withAdmin(database) { try await $0.signingKeys.rotate(by: .commandLine) }
            if output.json {
                try printJSON(["kid": kid, "activatesAt": activatesAt.rfc3339])
            } else {
                print("published key \(kid); it signs from \(activatesAt.rfc3339)")
            }
        }
    }
}
