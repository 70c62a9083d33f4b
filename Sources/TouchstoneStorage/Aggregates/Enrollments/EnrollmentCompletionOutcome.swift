/// How far a completion got.
package enum EnrollmentCompletionOutcome: Sendable, Equatable {
    /// The device, its session and the notices are stored.
    case completed
    /// The enrolment was no longer consumed (a password change cancelled it); nothing stored.
    case cancelled
    /// `recoveryCode`: the code was spent or replaced meanwhile; nothing stored.
    case recoveryCodeSpent
    /// `firstCredential`: the user has a device, a passkey or an unused recovery code by now; nothing stored.
    case credentialsExist
}
