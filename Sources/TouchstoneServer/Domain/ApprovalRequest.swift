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
