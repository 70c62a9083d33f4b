import ArgumentParser
import Foundation
import TouchstoneDomain
import TouchstoneProtocol
import TouchstoneServer
import TouchstoneStorage

struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage apps, API keys, users, devices and signing keys on the database.",
        subcommands: [
            AppCommand.self, APIKeyCommand.self, Users.self, UserCommand.self, Devices.self, Revoke.self, Audit.self,
            SigningKey.self, TokenCommand.self,
        ])
}

/// Opens the database for one admin command, runs it with the domain's admin services, and closes the database
/// afterwards. A refusal of the services becomes the one line the command prints on standard error.
func withAdmin<T>(_ database: DatabaseOptions, _ body: (AdminServices) async throws -> T) async throws -> T {
    do {
        return try await TouchstoneAdmin.with(
            database: try database.location(), logger: CLILog.makeLogger("touchstone.admin"), body)
    } catch let refusal as ProblemError {
        throw ConfigurationError(refusal.detail ?? refusal.code.rawValue)
    }
}

/// Prints a value as one JSON object.
func printJSON<T: Encodable>(_ value: T) throws {
    print(String(decoding: try WireCoding.encoder().encode(value), as: UTF8.self))
}

extension AttestationRequirement: ExpressibleByArgument {}

extension Date {
    var rfc3339: String { ISO8601DateFormatter().string(from: self) }
}
