import Foundation
import SQLKit

extension SQLStore {
    package func countAttempt(_ counters: [ThrottleCounter], at: Date) async throws -> Date? {
        let now = at.storedSeconds
        do {
            return try await provider.transaction { database in
                for counter in counters {
                    // One conditional statement per counter: a blocked counter refuses the attempt without counting it,
                    // and concurrent attempts are serialized on the row, each seeing the count and block before it.
                    let remaining: SQLQueryString =
                        counter.decaySeconds > 0
                        ? "password_throttle.failures - (\(bind: now) - password_throttle.last_failure_at) / \(bind: counter.decaySeconds)"
                        : "password_throttle.failures"
                    guard
                        let failures = try await database.raw(
                            """
                            INSERT INTO password_throttle (key, failures, last_failure_at, blocked_until)
                            VALUES (\(bind: counter.key), 1, \(bind: now), 0)
                            ON CONFLICT (key) DO UPDATE
                                SET failures = CASE WHEN \(remaining) > 0 THEN \(remaining) ELSE 0 END + 1,
                                    last_failure_at = \(bind: now)
                                WHERE password_throttle.blocked_until <= \(bind: now)
                            RETURNING failures
                            """
                        ).first()?.int("failures")
                    else {
                        let until = try await database.raw(
                            "SELECT blocked_until FROM password_throttle WHERE key = \(bind: counter.key)"
                        ).first()?.date("blocked_until")
                        // Undo the counters counted before this one: a refused attempt counts nowhere.
                        throw AttemptRefused(until: until ?? at)
                    }
                    let until = at.addingTimeInterval(counter.delay(failures)).storedSeconds
                    try await database.raw(
                        "UPDATE password_throttle SET blocked_until = \(bind: until) WHERE key = \(bind: counter.key)"
                    ).run()
                }
                return nil
            }
        } catch let refused as AttemptRefused {
            return refused.until
        }
    }

    package func forgiveAttempt(clearing cleared: String, forgiving forgiven: String) async throws {
        try await provider.transaction { database in
            try await database.raw("DELETE FROM password_throttle WHERE key = \(bind: cleared)").run()
            try await database.raw(
                "UPDATE password_throttle SET failures = failures - 1 WHERE key = \(bind: forgiven) AND failures > 0"
            ).run()
        }
    }
}

/// Rolls back the counters of an attempt that one of its counters refuses.
private struct AttemptRefused: Error {
    let until: Date
}
