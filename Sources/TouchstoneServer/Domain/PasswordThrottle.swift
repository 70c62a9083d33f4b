import Foundation

/// Growing delays after password failures, per account and per client address; never a hard lock.
struct PasswordThrottle: Sendable {
    let store: any TouchstoneStore
    let clock: any WallClock

    /// Failures an account may have before delays start; the 6th attempt inside the delay is refused.
    static let freeAccountFailures = 5
    /// Failures one address may have (across accounts) before delays start.
    static let freeAddressFailures = 20
    static let longestDelay: TimeInterval = 900

    static func accountKey(_ username: String) -> String { "account:" + username.lowercased() }
    static func addressKey(_ address: String) -> String { "address:" + address }

    /// - Throws: 429 `too_many_attempts` with `Retry-After` while either key is delayed.
    func check(username: String, address: String) async throws {
        let now = clock.now()
        guard let until = try await store.throttledUntil(keys: [Self.accountKey(username), Self.addressKey(address)]),
            until > now
        else { return }
        throw ProblemError(
            429, .tooManyAttempts, "Too many failed attempts; wait before trying again.",
            retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
    }

    func recordFailure(username: String, address: String) async throws {
        let now = clock.now()
        try await store.countFailure(key: Self.accountKey(username), at: now) {
            Self.delay(after: $0, free: Self.freeAccountFailures)
        }
        try await store.countFailure(key: Self.addressKey(address), at: now) {
            Self.delay(after: $0, free: Self.freeAddressFailures)
        }
    }

    func recordSuccess(username: String) async throws {
        try await store.clearFailures(key: Self.accountKey(username))
    }

    /// 0 for the free failures, then 1 s, 2 s, 4 s … up to 15 minutes.
    static func delay(after failures: Int, free: Int) -> TimeInterval {
        guard failures >= free else { return 0 }
        return min(longestDelay, pow(2, Double(min(failures - free, 20))))
    }
}
