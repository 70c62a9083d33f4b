/// A verified assertion (WebAuthn §7.2): the new state to store with ``Credential/update(from:)``.
public struct AuthenticationResult: Sendable, Hashable {
    /// The credential that signed.
    public let credentialID: [UInt8]
    /// The user handle of the account the credential belongs to.
    public let userHandle: [UInt8]
    /// The new signature counter.
    public let signCount: UInt32
    /// BE, unchanged since registration.
    public let backupEligible: Bool
    /// BS now; it may differ from the stored value (a credential can become backed up or stop being so).
    public let backupState: Bool
    /// Whether the user was verified in this ceremony.
    public let userVerified: Bool
    /// Authenticator extension outputs, unverified and unsolicited (none are requested), for information only.
    public let authenticatorExtensions: CBORMap?
}
