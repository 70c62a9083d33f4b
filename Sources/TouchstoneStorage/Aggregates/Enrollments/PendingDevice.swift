import TouchstoneProtocol

/// The device data of a completed enrolment, kept while the enrolment waits for approval.
package struct PendingDevice: Codable, Sendable, Equatable {
    package var device: DeviceDescription
    package var fingerprint: String
    package var deviceKey: PublicJWK
    package var deviceKeyThumbprint: String
    package var biometricKey: PublicJWK?
    package var biometricKeyThumbprint: String?
    package var pinHash: String?
    package var ip: String
    /// What the device's attestation proved, kept for the device the approval creates.
    package var attestation: DeviceAttestation?

    package init(
        device: DeviceDescription,
        fingerprint: String,
        deviceKey: PublicJWK,
        deviceKeyThumbprint: String,
        biometricKey: PublicJWK? = nil,
        biometricKeyThumbprint: String? = nil,
        pinHash: String? = nil,
        ip: String,
        attestation: DeviceAttestation? = nil
    ) {
        self.device = device
        self.fingerprint = fingerprint
        self.deviceKey = deviceKey
        self.deviceKeyThumbprint = deviceKeyThumbprint
        self.biometricKey = biometricKey
        self.biometricKeyThumbprint = biometricKeyThumbprint
        self.pinHash = pinHash
        self.ip = ip
        self.attestation = attestation
    }
}
