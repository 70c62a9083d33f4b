import Foundation
import SQLKit
import TouchstoneCrypto
import TouchstoneProtocol

/// The store on any SQL database SQLKit speaks: the same statements serve SQLite and PostgreSQL.
package final class SQLStore: TouchstoneStore {
    package let provider: any SQLDatabaseProvider
    /// Device public keys, from their JWK text to the parsed and validated key that verifies, once per distinct
    /// text: the only cache of device keys, so a login reads its device and verifies without parsing a key.
    static let storedKeys = ParsedTextCache(capacity: 32_768) { text in
        try DevicePublicKey(jwk: fromJSON(text, as: PublicJWK.self))
    }
    /// App policies, decoded once per distinct text.
    static let storedPolicies = ParsedTextCache(capacity: 1_024) { text in try fromJSON(text, as: AppPolicy.self) }

    package init(provider: any SQLDatabaseProvider) {
        self.provider = provider
    }

    /// Runs the migrations.
    package func migrate() async throws {
        try await Migrations.run(on: provider)
    }

    package static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func fromJSON<T: Decodable>(_ text: String, as type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

extension Date {
    /// Whole seconds since 1970, as stored.
    package var storedSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }

    package init(storedSeconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(storedSeconds))
    }

    /// Whole milliseconds since 1970, as stored where seconds are too coarse (audit times, the push outbox).
    var storedMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    init(storedMilliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(storedMilliseconds) / 1000)
    }
}

extension SQLRow {
    package func string(_ column: String) throws -> String {
        try decode(column: column, as: String.self)
    }

    func optionalString(_ column: String) throws -> String? {
        try decode(column: column, as: String?.self)
    }

    package func int(_ column: String) throws -> Int {
        try decode(column: column, as: Int.self)
    }

    package func date(_ column: String) throws -> Date {
        Date(storedSeconds: try decode(column: column, as: Int64.self))
    }

    func optionalDate(_ column: String) throws -> Date? {
        try decode(column: column, as: Int64?.self).map(Date.init(storedSeconds:))
    }
}
