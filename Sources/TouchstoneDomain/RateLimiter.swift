import Foundation
import TouchstoneStorage

/// The per-address limit on the endpoints an anonymous caller can make the server store something with: at most
/// ``ServerSettings/rateLimit`` requests per address and endpoint in a 60-second window; refused requests do not count.
/// Addresses are counted as ``CountedAddress`` says (an IPv6 address by its /64). Counted in the database, so the limit
/// is exact across instances.
package struct RateLimiter: Sendable {
    let store: any RateLimitStore
    let clock: any WallClock
    /// Requests per window; 0 turns the limit off.
    let limit: Int

    /// The window, in seconds.
    static let window = 60

    package init(environment: ServiceEnvironment) {
        store = environment.store
        clock = environment.clock
        limit = environment.settings.rateLimit
    }

    /// Whether requests are counted at all (`serve --rate-limit 0` turns the limit off).
    package var isOn: Bool { limit > 0 }

    /// Counts a request of `address` (the client's full address) to `endpoint`.
    /// - Throws: 429 `too_many_attempts` with the seconds until the window ends, when the address has used it up.
    package func admit(endpoint: String, address: String) async throws {
        guard limit > 0 else { return }
        let now = clock.now()
        let key = endpoint + " " + CountedAddress.key(address)
        guard let reopens = try await store.countRequest(key: key, limit: limit, window: Self.window, at: now) else { return }
        throw ProblemError(
            .tooManyAttempts, detail: "Too many requests from this address; try again later.",
            retryAfter: max(1, Int(reopens.timeIntervalSince(now).rounded(.up))))
    }
}
