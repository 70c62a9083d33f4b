import Foundation
import SQLKit

extension SQLStore {
    func throttledUntil(keys: [String]) async throws -> Date? {
        guard !keys.isEmpty else { return nil }
        return try await provider.read { database in
            try await database.raw(
                "SELECT MAX(blocked_until) AS until FROM password_throttle WHERE key IN (\(binds: keys))"
            ).first()?.optionalDate("until")
        }
    }

    func countFailure(key: String, at: Date, delay: @escaping @Sendable (Int) -> TimeInterval) async throws {
        try await provider.transaction { database in
            let failures = try await database.raw(
                """
                INSERT INTO password_throttle (key, failures, last_failure_at, blocked_until)
                VALUES (\(bind: key), 1, \(bind: at.storedSeconds), 0)
                ON CONFLICT (key) DO UPDATE SET failures = password_throttle.failures + 1,
                    last_failure_at = \(bind: at.storedSeconds)
                RETURNING failures
                """
            ).first()?.int("failures") ?? 1
            let until = at.addingTimeInterval(delay(failures)).storedSeconds
            try await database.raw(
                """
                UPDATE password_throttle SET blocked_until = \(bind: until)
                WHERE key = \(bind: key) AND blocked_until < \(bind: until)
                """
            ).run()
        }
    }

    func clearFailures(key: String) async throws {
        try await provider.write { database in
            try await database.raw("DELETE FROM password_throttle WHERE key = \(bind: key)").run()
        }
    }
}
