/// The device that signed a verified assertion — a login or a decision — as the transaction acting on it must still
/// find it: active, and holding the key that signed. The device was read before the signature was checked, so a
/// revocation or an opt-out may have landed since; the transaction decides, not the read.
///
/// With a PIN, the checked ``PINAttempt`` is applied first, in the same transaction (a wrong one is counted and ends
/// the action).
package struct SigningDevice: Sendable, Equatable {
    package let deviceId: String
    /// Whether the biometric key signed; otherwise the device key did, with the PIN.
    package let signedWithBiometricKey: Bool
    /// The signing key's thumbprint, which the device must still hold.
    package let keyThumbprint: String
    package let pin: PINAttempt?

    /// Why the transaction did not find the device as the assertion was verified against.
    package enum Refusal: Sendable, Equatable {
        /// The device was revoked (or removed) since it was read.
        case deviceRevoked
        /// The signing key is no longer registered (biometric opt-out).
        case keyRemoved
        /// The PIN was not accepted (counted when wrong).
        case pin(PINOutcome)
    }

    package init(deviceId: String, signedWithBiometricKey: Bool, keyThumbprint: String, pin: PINAttempt?) {
        self.deviceId = deviceId
        self.signedWithBiometricKey = signedWithBiometricKey
        self.keyThumbprint = keyThumbprint
        self.pin = pin
    }
}
