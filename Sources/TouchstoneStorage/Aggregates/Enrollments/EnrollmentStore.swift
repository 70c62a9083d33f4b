import Foundation

/// Enrolments, from the password check to the device, including their approval by another device. Every method is atomic on its own.
package protocol EnrollmentStore: Sendable {
    /// Stores a started enrolment if the user's password hash is still `passwordHash`; `false` when it changed.
    func createEnrollment(_ enrollment: EnrollmentRecord, passwordHash: String) async throws -> Bool
    func enrollment(id: String) async throws -> EnrollmentRecord?
    /// Moves a `started` enrolment whose challenge is still valid to `completed` or `pending`; `false` if it was
    /// not in that state (used, unknown or expired).
    func consumeEnrollmentChallenge(id: String, now: Date) async throws -> Bool
    /// In one transaction: parks a consumed enrolment until another device approves it, unless the user is over
    /// `limits` (then the enrolment is cancelled and `false` returned; nothing reaches any device).
    func parkEnrollment(_ request: ApprovalRequest, limits: ApprovalLimits) async throws -> Bool
    /// In one transaction, under a lock on the user's row, if `condition` holds (spending the recovery code it names)
    /// and the enrolment is still consumed (a password change cancels it): records the device on it, revokes
    /// `previous` (the device it replaces, by proof), leaves `notices`, inserts the device, the session and its first
    /// refresh token. Any other outcome than `completed` writes nothing.
    func completeEnrollment(
        id: String, device: DeviceRecord, replacing previous: String?, condition: EnrollmentCondition,
        session: SessionRecord, refreshTokenHash: String, notices: [NoticeDraft]
    ) async throws -> EnrollmentCompletionOutcome
    /// Enrolments of this user waiting for approval.
    func pendingEnrollments(userId: String, now: Date) async throws -> [EnrollmentRecord]
    /// In one transaction: the decider's steps (``DecisionCommit``), then the decision on a pending enrolment; an
    /// approval leaves `notices` and inserts `device`.
    func decideEnrollment(
        id: String, approvedDevice device: DeviceRecord?, by commit: DecisionCommit, notices: [NoticeDraft]
    ) async throws -> DecisionCommit.Outcome
    /// In one transaction: stores an approved enrolment's first session (its `deviceId` the enrolment's device), for
    /// the first caller only and only while the device is active.
    func deliverEnrollment(id: String, session: SessionRecord, refreshTokenHash: String) async throws -> Bool
}
