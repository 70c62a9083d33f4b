import Synchronization

/// The bound on bcrypt work (PROTOCOL "Operations"): at most ``limit`` requests that need a password or PIN hash are
/// admitted at once, and one more is refused at once with 503 `temporarily_unavailable` and `Retry-After: 1`. So no
/// flood of sign-ups or password guesses, from any number of addresses, queues minutes of CPU ahead of logins.
///
/// Services admit a request through ``PasswordHasher/admitting(if:_:)``, *before* it counts or consumes anything (a
/// throttled attempt, a challenge, a device token, an audit event): a refusal then leaves everything as it was.
/// ``PasswordHasher/hash(_:)`` and ``PasswordHasher/verify(_:against:)`` inside an admission use its slot; outside one
/// they take a slot of their own.
package final class HashingGate: Sendable {
    /// The contract's bound: 64 hashes waiting.
    package static let standardLimit = 64
    /// What a request beyond the bound gets.
    package static let refusal = ProblemError(
        .temporarilyUnavailable, detail: "Too many password checks are waiting; try again in a second.", retryAfter: 1)

    /// How many requests may hold a slot at once.
    package let limit: Int
    private let admitted = Mutex(0)
    private let metrics: ServerMetrics

    /// The gate whose slot the running task holds: hashes inside an admission take no second slot.
    @TaskLocal private static var holding: HashingGate?

    /// - Parameter metrics: counts each refusal (`touchstone_hashing_refusals_total`).
    package init(limit: Int = standardLimit, metrics: ServerMetrics = ServerMetrics()) {
        self.limit = limit
        self.metrics = metrics
    }

    /// The slots held now.
    package var admittedCount: Int { admitted.withLock { $0 } }

    /// Runs `body` holding one slot, taken before `body` starts and given back when it ends (returning, throwing or
    /// cancelled). Inside an admission of this gate, `body` just runs in the slot already held.
    /// - Throws: ``refusal`` at once, before `body` runs, when every slot is taken; otherwise what `body` throws.
    package func admitting<T>(_ body: () async throws -> T) async throws -> T {
        if Self.holding === self {
            return try await body()
        }
        try reserve()
        defer { admitted.withLock { $0 -= 1 } }
        return try await Self.$holding.withValue(self, operation: body)
    }

    private func reserve() throws(ProblemError) {
        let reserved = admitted.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard reserved else {
            metrics.hashingRefusal()
            throw Self.refusal
        }
    }
}
