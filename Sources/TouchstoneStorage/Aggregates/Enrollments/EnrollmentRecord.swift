import Foundation

/// An enrolment from its password check to its device.
package struct EnrollmentRecord: Sendable, Equatable {
    package enum State: String, Sendable {
        /// Waiting for the device's proofs.
        case started
        /// Its challenge was answered; the enrolment is being completed.
        case consumed
        /// Proofs accepted; waiting for another device's approval.
        case pending
        case approved
        case denied
        /// The device exists (directly, or once an approval has been delivered).
        case completed
        /// Ended without a device: over the approval limits, or the password changed meanwhile.
        case cancelled
    }

    package var id: String
    package var userId: String
    package var clientId: String
    package var challenge: String
    package var challengeExpiresAt: Date
    package var state: State
    package var pollSecretHash: String?
    package var pendingExpiresAt: Date?
    package var pendingDevice: PendingDevice?
    package var deviceId: String?
    package var createdAt: Date
    /// The challenge an approving device signs, once the enrolment waits for approval.
    package var approvalChallenge: String?
    /// The number the new device shows, and the three its approver picks among (number matching).
    package var approvalNumber: Int?
    package var approvalNumbers: [Int]?
    /// The digest of the recovery code the enrolment was started with, which its completion spends.
    package var recoveryCodeHash: String?

    package init(
        id: String,
        userId: String,
        clientId: String,
        challenge: String,
        challengeExpiresAt: Date,
        state: State,
        pollSecretHash: String? = nil,
        pendingExpiresAt: Date? = nil,
        pendingDevice: PendingDevice? = nil,
        deviceId: String? = nil,
        createdAt: Date,
        approvalChallenge: String? = nil,
        approvalNumber: Int? = nil,
        approvalNumbers: [Int]? = nil,
        recoveryCodeHash: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.clientId = clientId
        self.challenge = challenge
        self.challengeExpiresAt = challengeExpiresAt
        self.state = state
        self.pollSecretHash = pollSecretHash
        self.pendingExpiresAt = pendingExpiresAt
        self.pendingDevice = pendingDevice
        self.deviceId = deviceId
        self.createdAt = createdAt
        self.approvalChallenge = approvalChallenge
        self.approvalNumber = approvalNumber
        self.approvalNumbers = approvalNumbers
        self.recoveryCodeHash = recoveryCodeHash
    }
}
