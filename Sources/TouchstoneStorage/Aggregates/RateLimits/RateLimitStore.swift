import Foundation

/// Requests counted per key (an endpoint and a client address) in fixed windows. Every method is atomic on its own.
package protocol RateLimitStore: Sendable {
    /// Counts one request on `key` in one conditional statement, unless `limit` requests were counted in the window
    /// of `window` seconds that holds `now` (a refused request counts nothing).
    /// - Returns: `nil` when counted; otherwise when the window ends.
    func countRequest(key: String, limit: Int, window: Int, at now: Date) async throws -> Date?
}
