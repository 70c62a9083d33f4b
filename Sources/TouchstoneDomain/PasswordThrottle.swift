import Foundation
import TouchstoneStorage

/// Growing delays after password failures, per account and per client address; never a hard lock.
///
/// Every attempt is counted before its bcrypt runs, as a failure until it proves right, so that concurrent guesses get
/// no more tries than sequential ones; a right password clears its account's count and gives the address its attempt
/// back.
package struct PasswordThrottle: Sendable {
    package let store: any ThrottleStore
    package let clock: any WallClock

    /// Failures an account may have before delays start; the 6th attempt inside the delay is refused.
    static let freeAccountFailures = 5
    /// Failures one address may have (across accounts) before delays start.
    static let freeAddressFailures = 20
    /// An address's count loses one failure per this many seconds, so that a few typos behind one NAT fade instead of
    /// delaying everybody there for a day. An account's count is cleared only by its right password.
    static let addressDecaySeconds: Int64 = 60
    static let longestDelay: TimeInterval = 900

    static func accountKey(_ username: String) -> String { "account:" + username.lowercased() }
    /// The address's counter: an IPv6 address shares it with its /64 (``CountedAddress``).
    static func addressKey(_ address: String) -> String { "address:" + CountedAddress.key(address) }

    /// Counts one password attempt for the account and the address, unless either is delayed now.
    /// - Throws: 429 `too_many_attempts` with `Retry-After` while either is delayed; nothing is counted then.
    func admit(username: String, address: String) async throws {
        let now = clock.now()
        let counters = [
            ThrottleCounter(key: Self.accountKey(username), decaySeconds: 0) {
                Self.delay(after: $0, free: Self.freeAccountFailures)
            },
            ThrottleCounter(key: Self.addressKey(address), decaySeconds: Self.addressDecaySeconds) {
                Self.delay(after: $0, free: Self.freeAddressFailures)
            },
        ]
        guard let until = try await store.countAttempt(counters, at: now) else { return }
        throw ProblemError(.tooManyAttempts, detail: "Too many failed attempts; wait before trying again.",
            retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
    }

    /// The admitted attempt's password was right.
    package func succeeded(username: String, address: String) async throws {
        try await store.forgiveAttempt(clearing: Self.accountKey(username), forgiving: Self.addressKey(address))
    }

    /// 0 for the free failures, then 1 s, 2 s, 4 s … up to 15 minutes.
    package static func delay(after failures: Int, free: Int) -> TimeInterval {
        guard failures >= free else { return 0 }
        return min(longestDelay, pow(2, Double(min(failures - free, 20))))
    }
}
