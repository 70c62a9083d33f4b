import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// An enrolled device with its two keys and PIN state.
///
/// The keys are read parsed and validated, ready to verify (the store parses each stored key once: ``SQLStore``'s
/// cache of them is the only one).
package struct DeviceRecord: Sendable, Equatable {
    package var id: String
    package var userId: String
    package var clientId: String
    package var publisher: String
    package var name: String
    package var model: String
    package var vendorId: String
    package var os: String
    package var fingerprint: String
    package var deviceKey: DevicePublicKey
    package var deviceKeyThumbprint: String
    package var biometricKey: DevicePublicKey?
    package var biometricKeyThumbprint: String?
    package var pinHash: String?
    package var pinFailures: Int
    package var pinLockedAt: Date?
    package var createdAt: Date
    package var lastUsedAt: Date?
    package var revokedAt: Date?
    /// Whether the device ever reported being compromised (at enrolment or in an assertion).
    package var compromised: Bool = false
    /// What the device's attestation proved at enrolment; `nil` when it sent none.
    package var attestation: DeviceAttestation?

    package var isActive: Bool { revokedAt == nil }

    /// The registered key a token's `kid` names, and whether it is the biometric key (the device key signs only
    /// together with the PIN); `nil` for any other key, including a biometric key revoked by opt-out.
    package func registeredKey(kid: String) -> (key: DevicePublicKey, isBiometric: Bool)? {
        if let biometricKey, kid == biometricKeyThumbprint { return (biometricKey, true) }
        if kid == deviceKeyThumbprint { return (deviceKey, false) }
        return nil
    }

    package init(
        id: String,
        userId: String,
        clientId: String,
        publisher: String,
        name: String,
        model: String,
        vendorId: String,
        os: String,
        fingerprint: String,
        deviceKey: DevicePublicKey,
        deviceKeyThumbprint: String,
        biometricKey: DevicePublicKey? = nil,
        biometricKeyThumbprint: String? = nil,
        pinHash: String? = nil,
        pinFailures: Int,
        pinLockedAt: Date? = nil,
        createdAt: Date,
        lastUsedAt: Date? = nil,
        revokedAt: Date? = nil,
        compromised: Bool = false,
        attestation: DeviceAttestation? = nil
    ) {
        self.id = id
        self.userId = userId
        self.clientId = clientId
        self.publisher = publisher
        self.name = name
        self.model = model
        self.vendorId = vendorId
        self.os = os
        self.fingerprint = fingerprint
        self.deviceKey = deviceKey
        self.deviceKeyThumbprint = deviceKeyThumbprint
        self.biometricKey = biometricKey
        self.biometricKeyThumbprint = biometricKeyThumbprint
        self.pinHash = pinHash
        self.pinFailures = pinFailures
        self.pinLockedAt = pinLockedAt
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.compromised = compromised
        self.attestation = attestation
    }
}
