/// What an enrolment's completion requires beyond its proofs, checked in the transaction that creates the device.
package enum EnrollmentCondition: Sendable, Equatable {
    /// Nothing more: the app's policy asks for no approval, or the device replaces one by its proof.
    case none
    /// The user's first way in: no active device, no passkey and no unused recovery code.
    case firstCredential
    /// Spends this unused recovery code of the user (its digest) in the same transaction.
    case recoveryCode(hash: String)
}

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
