/// What an enrolment's completion requires beyond its proofs, checked in the transaction that creates the device.
package enum EnrollmentCondition: Sendable, Equatable {
    /// Nothing more: the app's policy asks for no approval, or the device replaces one by its proof.
    case none
    /// The user's first way in: no active device, no passkey and no unused recovery code.
    case firstCredential
    /// Spends this unused recovery code of the user (its digest) in the same transaction.
    case recoveryCode(hash: String)
}
