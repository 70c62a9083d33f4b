import Foundation

/// Everything a verified login assertion writes, so that the store can write it in one transaction.
package struct LoginCommit: Sendable {
    /// What follows once the challenge is consumed.
    package enum Effect: Sendable {
        /// Nothing more (a refusal decided from the assertion and the device).
        case none
        /// A binding mismatch: the device is revoked with its sessions, leaving `notices` for the user's other devices.
        case revokeDevice(reason: String, notices: [NoticeDraft])
        /// A login: the signing device's steps (``SigningDevice``: its PIN, then still active and holding the key
        /// that signed; the device is marked used), then the session is stored and the login audited.
        case issue(session: SessionRecord, refreshTokenHash: String, signer: SigningDevice, audit: AuditEvent)
    }

    /// How far the commit got; every step before the one named is committed.
    package enum Outcome: Sendable, Equatable {
        /// The challenge was unknown, spent, expired, or bound to another device or purpose.
        case challengeInvalid
        /// `issue` only: the signing device's steps refused; no session.
        case refused(SigningDevice.Refusal)
        /// Every step was written.
        case committed
    }

    /// The assertion's nonce. Consuming it is what makes the assertion single-use: the same assertion, or any other
    /// answering this challenge, finds it spent, so no digest of the assertion needs to be kept as well.
    package var challenge: String
    package var deviceId: String
    package var purpose: String
    package var now: Date
    /// The verified assertion said the device is compromised: the device keeps that mark, whatever the outcome.
    package var reportedCompromised: Bool = false
    package var effect: Effect

    package init(
        challenge: String,
        deviceId: String,
        purpose: String,
        now: Date,
        reportedCompromised: Bool = false,
        effect: Effect
    ) {
        self.challenge = challenge
        self.deviceId = deviceId
        self.purpose = purpose
        self.now = now
        self.reportedCompromised = reportedCompromised
        self.effect = effect
    }
}
