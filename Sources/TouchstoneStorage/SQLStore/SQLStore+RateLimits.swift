import Foundation
import SQLKit

extension SQLStore {
    package func countRequest(key: String, limit: Int, window: Int, at now: Date) async throws -> Date? {
        let seconds = now.storedSeconds
        return try await provider.write { database in
            // A window that has ended starts again at this request; within one, the row is counted while under the
            // limit. Concurrent requests are serialized on the row, each seeing the count before it.
            let counted = try await database.raw(
                """
                INSERT INTO rate_limits (key, window_start, requests) VALUES (\(bind: key), \(bind: seconds), 1)
                ON CONFLICT (key) DO UPDATE
                    SET requests = CASE WHEN rate_limits.window_start <= \(bind: seconds - Int64(window)) THEN 1
                            ELSE rate_limits.requests + 1 END,
                        window_start = CASE WHEN rate_limits.window_start <= \(bind: seconds - Int64(window))
                            THEN \(bind: seconds) ELSE rate_limits.window_start END
                    WHERE rate_limits.window_start <= \(bind: seconds - Int64(window)) OR rate_limits.requests < \(bind: limit)
                RETURNING requests
                """
            ).first() != nil
            guard !counted else { return nil }
            let start = try await database.raw("SELECT window_start FROM rate_limits WHERE key = \(bind: key)").first()?
                .date("window_start")
            return (start ?? now).addingTimeInterval(TimeInterval(window))
        }
    }
}
