import TouchstoneCrypto

/// What an attestation of a registration must vouch for: the enrolment's challenge and its two new keys.
public struct KeyAttestationSubject: Sendable {
    /// The enrolment challenge, as the server sent it (base64url of 32 bytes).
    public let challenge: String
    /// The new device key.
    public let deviceKey: DevicePublicKey
    /// The new biometric key; `nil` when the device registers without one.
    public let biometricKey: DevicePublicKey?

    /// The `clientDataHash` an App Attest attestation of these keys is made with.
    public var appAttestClientDataHash: [UInt8] {
        AppAttestClientData.hash(
            challenge: challenge, deviceKeyID: deviceKey.thumbprint, biometricKeyID: biometricKey?.thumbprint)
    }

    public init(challenge: String, deviceKey: DevicePublicKey, biometricKey: DevicePublicKey?) {
        self.challenge = challenge
        self.deviceKey = deviceKey
        self.biometricKey = biometricKey
    }
}
