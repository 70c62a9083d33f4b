import Foundation
import SQLKit
import TouchstoneStorage

extension SQLStore {
    package func insertEnrolledDevices(users: [UserRecord], devices: [DeviceRecord]) async throws {
        try await provider.transaction { database in
            // Multi-row inserts: a few statements per batch instead of one per row.
            for start in stride(from: 0, to: users.count, by: Self.rowsPerInsert) {
                let rows = users[start..<min(users.count, start + Self.rowsPerInsert)].map { user -> SQLQueryString in
                    "(\(bind: user.id), \(bind: user.username), \(bind: user.passwordHash), \(bind: user.createdAt.storedSeconds))"
                }
                try await database.raw(
                    "INSERT INTO users (id, username, password_hash, created_at) VALUES " + rows.joined(separator: ", ")
                ).run()
            }
            for start in stride(from: 0, to: devices.count, by: Self.rowsPerInsert) {
                let rows = try devices[start..<min(devices.count, start + Self.rowsPerInsert)].map {
                    device -> SQLQueryString in "(\(binds: try Self.deviceValues(device)))"
                }
                try await database.raw(
                    "INSERT INTO devices (\(unsafeRaw: Self.deviceColumns)) VALUES " + rows.joined(separator: ", ")
                ).run()
            }
        }
    }

    /// Rows per multi-row INSERT: 24 device columns × 200 stays far below SQLite's and PostgreSQL's bind limits.
    private static let rowsPerInsert = 200
}
