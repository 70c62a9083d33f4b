import Foundation

/// Counters of failed password attempts. Every method is atomic on its own.
package protocol ThrottleStore: Sendable {
    /// In one transaction: unless a counter is blocked at `at`, counts one attempt on each (after its decay) and blocks
    /// it until the time its delay gives for the new count.
    /// - Returns: `nil` when counted; otherwise when the blocking counter frees up (nothing counted).
    func countAttempt(_ counters: [ThrottleCounter], at: Date) async throws -> Date?
    /// After a right password: deletes the counter `cleared` and takes one attempt off `forgiven`.
    func forgiveAttempt(clearing cleared: String, forgiving forgiven: String) async throws
}
