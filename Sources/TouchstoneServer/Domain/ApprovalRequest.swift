import Foundation

/// A new device whose enrolment waits for another device's approval, with its number matching.
struct ApprovalRequest: Sendable {
    let enrollmentId: String
    let userId: String
    let device: PendingDevice
    let pollSecretHash: String
    /// The challenge the approving device signs.
    let challenge: String
    /// The number the new device shows, one of `numbers`.
    let number: Int
    let numbers: [Int]
    let expiresAt: Date
    let now: Date
}

/// How often a user's devices may be asked to approve something (new devices, web logins): one request pending at a
/// time, at most `perWindow` per `window` seconds, and none for `coolDown` seconds after a denial.
struct ApprovalLimits: Sendable {
    let perWindow: Int
    let window: Int64
    let coolDown: Int64

    static let standard = ApprovalLimits(perWindow: 5, window: 3_600, coolDown: 900)

    /// Three distinct numbers from 10 to 99 in random order, and the right one among them.
    static func numberMatching() -> (number: Int, numbers: [Int]) {
        var numbers: Set<Int> = []
        while numbers.count < 3 { numbers.insert(Int.random(in: 10...99)) }
        let shuffled = numbers.shuffled()
        return (shuffled.randomElement() ?? shuffled[0], shuffled)
    }
}

/// What a poll for an approved web login found.
enum WebLoginDelivery: Sendable, Equatable {
    /// The session was stored, for this caller.
    case delivered
    /// An earlier poll took it.
    case alreadyDelivered
    /// The approving device is no longer active: no session.
    case approverInactive
}
