import Foundation

/// A new device whose enrolment waits for another device's approval, with its number matching.
package struct ApprovalRequest: Sendable {
    package let enrollmentId: String
    package let userId: String
    package let device: PendingDevice
    package let pollSecretHash: String
    /// The challenge the approving device signs.
    package let challenge: String
    /// The number the new device shows, one of `numbers`.
    package let number: Int
    package let numbers: [Int]
    package let expiresAt: Date
    package let now: Date

    package init(
        enrollmentId: String,
        userId: String,
        device: PendingDevice,
        pollSecretHash: String,
        challenge: String,
        number: Int,
        numbers: [Int],
        expiresAt: Date,
        now: Date
    ) {
        self.enrollmentId = enrollmentId
        self.userId = userId
        self.device = device
        self.pollSecretHash = pollSecretHash
        self.challenge = challenge
        self.number = number
        self.numbers = numbers
        self.expiresAt = expiresAt
        self.now = now
    }
}
