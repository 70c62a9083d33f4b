import TouchstoneProtocol

/// What a device's attestation proved at enrolment, stored with the device: its kind, the app build it vouched for, and
/// for App Attest the key and receipt that later assertions and receipt refreshes need.
package struct DeviceAttestation: Codable, Sendable, Equatable {
    package var kind: DeviceAttestationKind
    /// App Attest only: the key identifier (base64url of SHA-256 of the key's point).
    package var appAttestKeyId: String?
    /// App Attest only: the attested P-256 key, base64url of its uncompressed point.
    package var appAttestPublicKey: String?
    /// App Attest only: Apple's receipt as received (base64url); not validated here.
    package var appAttestReceipt: String?
    /// The app build the attestation proved; `nil` for a device enrolled before builds were kept.
    package var build: AttestedBuild?

    package init(
        kind: DeviceAttestationKind, appAttestKeyId: String? = nil, appAttestPublicKey: String? = nil,
        appAttestReceipt: String? = nil, build: AttestedBuild? = nil
    ) {
        self.kind = kind
        self.appAttestKeyId = appAttestKeyId
        self.appAttestPublicKey = appAttestPublicKey
        self.appAttestReceipt = appAttestReceipt
        self.build = build
    }
}
