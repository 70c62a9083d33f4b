import Foundation

/// One throttle count an attempt adds to: its key, how its count fades, and the delay a count earns.
package struct ThrottleCounter: Sendable {
    package let key: String
    /// Seconds without an attempt that forgive one failure; 0: never.
    package let decaySeconds: Int64
    package let delay: @Sendable (Int) -> TimeInterval

    package init(key: String, decaySeconds: Int64, delay: @escaping @Sendable (Int) -> TimeInterval) {
        self.key = key
        self.decaySeconds = decaySeconds
        self.delay = delay
    }
}
