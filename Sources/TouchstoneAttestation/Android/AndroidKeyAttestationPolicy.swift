/// Decides whether a verified Android key attestation is good enough to enrol a key (PROTOCOL, "Hardware key
/// attestation"): the key and challenge match, the key lives in a TEE or StrongBox, and its hardware-enforced
/// properties and app are the ones Touchstone requires.
public struct AndroidKeyAttestationPolicy: Sendable {
    /// `KM_PURPOSE_SIGN`.
    static let purposeSign = 2
    /// `KM_ORIGIN_GENERATED`.
    static let originGenerated = 0
    /// The biometric bit of `userAuthType` (`HW_AUTH_BIOMETRIC`).
    static let biometricAuthType = 2

    /// The package and signing-certificate pairs allowed for the app.
    public let allowedApplications: [AndroidApplication]

    /// A policy for the app whose allowed pairs are `allowedApplications`.
    /// - Parameter allowedApplications: each one allowed package and signing-certificate digest pair.
    public init(allowedApplications: [AndroidApplication]) {
        self.allowedApplications = allowedApplications
    }

    /// Accepts or refuses the attestation of one key.
    /// - Parameters:
    ///   - attestation: what ``AndroidKeyAttestationVerifier`` returned for the key's chain.
    ///   - expectedKey: the key being enrolled.
    ///   - challenge: the enrolment challenge's decoded bytes (32).
    ///   - role: the device key or the biometric key.
    /// - Returns: where the key lives.
    /// - Throws: ``AttestationError`` with the code of the first check that fails, in the order of
    ///   ``refusals(of:expectedKey:challenge:role:)``; its detail names every failed check.
    public func evaluate(
        _ attestation: AndroidKeyAttestation, expectedKey: AttestationPublicKey, challenge: [UInt8],
        role: AndroidKeyRole
    ) throws(AttestationError) -> AndroidKeyStorage {
        let refusals = refusals(of: attestation, expectedKey: expectedKey, challenge: challenge, role: role)
        if let first = refusals.first {
            throw AttestationError(first.code, refusals.map(\.description).joined(separator: "; "))
        }
        let description = attestation.keyDescription
        let levels = [description.attestationSecurityLevel, description.keyMintSecurityLevel]
        return levels.allSatisfy { $0 == .strongBox } ? .strongBox : .trustedEnvironment
    }

    /// Every check the attestation fails, in the contract's order: key, challenge, security levels, purpose, origin,
    /// boot state, bootloader lock, app, then for the biometric key `noAuthRequired`, `userAuthType` and
    /// `authTimeout`. Empty when it passes.
    public func refusals(
        of attestation: AndroidKeyAttestation, expectedKey: AttestationPublicKey, challenge: [UInt8],
        role: AndroidKeyRole
    ) -> [AttestationError] {
        let description = attestation.keyDescription
        let hardware = description.hardwareEnforced
        var refusals: [AttestationError] = []
        func refuse(_ code: AttestationError.Code, _ detail: String) { refusals.append(AttestationError(code, detail)) }

        if attestation.publicKey != expectedKey { refuse(.keyMismatch, "the attested key is not the enrolled key") }
        if description.attestationChallenge != challenge {
            refuse(.challengeMismatch, "attestationChallenge is not the enrolment challenge")
        }
        let levels = [description.attestationSecurityLevel, description.keyMintSecurityLevel]
        if levels.contains(.software) {
            refuse(.securityLevelInsufficient, "security levels are \(levels.map { "\($0)" }.joined(separator: " / "))")
        }
        if !hardware.purposes.contains(Self.purposeSign) {
            refuse(.purposeNotSign, "hardware-enforced purposes \(hardware.purposes) lack SIGN")
        }
        if hardware.origin != Self.originGenerated {
            refuse(.originNotGenerated, "hardware-enforced origin is \(hardware.origin.map { "\($0)" } ?? "absent")")
        }
        if hardware.rootOfTrust?.verifiedBootState != .verified {
            let state = hardware.rootOfTrust.map { "\($0.verifiedBootState)" } ?? "absent"
            refuse(.bootStateNotVerified, "verifiedBootState is \(state)")
        }
        if hardware.rootOfTrust?.deviceLocked != true { refuse(.deviceNotLocked, "the bootloader is not locked") }
        if !isAllowed(description.softwareEnforced.attestationApplicationID) {
            refuse(.applicationNotAllowed, "attestationApplicationId names no allowed package and signing certificate")
        }
        if role == .biometric {
            if hardware.noAuthRequired { refuse(.noAuthRequired, "the biometric key has noAuthRequired") }
            if hardware.userAuthType != Self.biometricAuthType {
                let type = hardware.userAuthType.map { "\($0)" } ?? "absent"
                refuse(.userAuthTypeNotBiometric, "userAuthType is \(type), not 2")
            }
            if let timeout = hardware.authTimeout {
                refuse(.authTimeoutPresent, "the biometric key has authTimeout \(timeout)")
            }
        }
        return refusals
    }

    /// Whether one package of `applicationID` and one of its signature digests form an allowed pair.
    private func isAllowed(_ applicationID: AttestationApplicationID?) -> Bool {
        guard let applicationID else { return false }
        return allowedApplications.contains { allowed in
            applicationID.packages.contains { $0.name == allowed.packageName }
                && applicationID.signatureDigests.contains(allowed.signingCertificateSHA256)
        }
    }
}
