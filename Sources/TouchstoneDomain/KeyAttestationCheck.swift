import Foundation
import Logging
import TouchstoneAttestation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// Judges the hardware key attestation of an enrolment (PROTOCOL "Hardware key attestation"): required or not by the
/// app's policy, and when sent, verified with every check of its format against the configured trust anchors and
/// status list.
///
/// Every failed check is one refusal, `attestation_invalid`, whatever the reason: the reason goes to the log only.
struct KeyAttestationCheck: Sendable {
    /// The trust anchors and the Android status list.
    let settings: ServerSettings
    let clock: any WallClock
    let logger: Logger

    /// The keys and challenge an attestation must vouch for.
    struct Subject {
        var enrollmentId: String
        /// The enrolment challenge, as sent (base64url of 32 bytes).
        var challenge: String
        var deviceKey: DevicePublicKey
        var biometricKey: DevicePublicKey?
    }

    /// Verifies `attestation` for `subject`, or requires one when `app`'s policy does.
    /// - Returns: what to store with the device; `nil` when none was sent and none is required.
    /// - Throws: ``ProblemError`` `attestation_required` when the policy requires one and none was sent;
    ///   `attestation_invalid` (same answer for every reason, the reason logged) when a check fails.
    func verify(_ attestation: EnrollmentAttestation?, of subject: Subject, for app: AppRecord) throws -> DeviceAttestation? {
        guard let attestation else {
            guard app.policy.attestation != .required else {
                throw ProblemError(.attestationRequired, detail: "Enrol with a hardware key attestation.")
            }
            return nil
        }
        do {
            switch attestation {
            case .androidKey(let deviceKey, let biometricKey):
                return try verifyAndroid(deviceKey: deviceKey, biometricKey: biometricKey, of: subject, for: app)
            case .appleAppAttest(let keyId, let attestationObject):
                return try verifyApple(keyId: keyId, attestationObject: attestationObject, of: subject, for: app)
            }
        } catch {
            logger.notice(
                "enrolment attestation refused",
                metadata: [
                    "enrollment": .string(subject.enrollmentId), "client": .string(app.clientId),
                    "check": .string(error.code.rawValue), "detail": .string(error.detail),
                ])
            throw ProblemError(.attestationInvalid)
        }
    }

    /// Android key attestation: each key's chain, then the contract's policy; StrongBox when both keys are there.
    private func verifyAndroid(
        deviceKey deviceChain: [String], biometricKey biometricChain: [String]?, of subject: Subject, for app: AppRecord
    ) throws(AttestationError) -> DeviceAttestation {
        guard let challenge = Base64URL.canonicalBytes(subject.challenge) else {
            throw AttestationError(.challengeMismatch, "the enrolment challenge is not base64url")
        }
        let verifier = AndroidKeyAttestationVerifier(
            trustAnchors: settings.attestationTrustAnchors,
            statusList: settings.androidAttestationStatus)
        let policy = AndroidKeyAttestationPolicy(allowedApplications: app.attestedApps.android.compactMap(\.application))
        let now = clock.now()
        func verified(_ chain: [String], of key: DevicePublicKey, as role: AndroidKeyRole) throws(AttestationError)
            -> (storage: AndroidKeyStorage, application: AttestationApplicationID?)
        {
            var certificates: [[UInt8]] = []
            for text in chain {
                guard let der = Base64URL.canonicalBytes(text) else {
                    throw AttestationError(.malformedCertificate, "a certificate of the \(role) chain is not base64url")
                }
                certificates.append(der)
            }
            let attested = try verifier.verify(chain: certificates, at: now)
            let expected = try AttestationPublicKey(subjectPublicKeyInfoDER: key.subjectPublicKeyInfoDER)
            let storage = try policy.evaluate(attested, expectedKey: expected, challenge: challenge, role: role)
            return (storage, attested.keyDescription.softwareEnforced.attestationApplicationID)
        }
        let device = try verified(deviceChain, of: subject.deviceKey, as: .device)
        var levels = [device.storage]
        switch (subject.biometricKey, biometricChain) {
        case (nil, nil):
            break
        case (let key?, let chain?):
            levels.append(try verified(chain, of: key, as: .biometric).storage)
        case (nil, _?):
            throw AttestationError(.keyMismatch, "a biometric key chain was sent without a biometric key")
        case (_?, nil):
            throw AttestationError(.keyMismatch, "the biometric key came without its chain")
        }
        // The policy refuses a chain without an application, so the device key's always names one.
        let application = device.application
        return DeviceAttestation(
            kind: levels.allSatisfy { $0 == .strongBox } ? .androidStrongBox : .androidTEE,
            build: .android(
                packages: application?.packages.map(\.name) ?? [],
                signingCertificateSHA256: application?.signatureDigests.map(HexDigits.text) ?? []))
    }

    /// Apple App Attest over the contract's `clientDataHash`; the App Attest key and receipt are kept.
    private func verifyApple(
        keyId: String, attestationObject: String, of subject: Subject, for app: AppRecord
    ) throws(AttestationError) -> DeviceAttestation {
        guard let keyID = Base64URL.canonicalBytes(keyId), let object = Base64URL.canonicalBytes(attestationObject) else {
            throw AttestationError(.malformedAttestationObject, "keyId or attestationObject is not base64url")
        }
        let verifier = AppAttestVerifier(
            trustAnchors: settings.attestationTrustAnchors,
            policy: AppAttestPolicy(
                allowedAppIDs: app.attestedApps.appleAppIds, allowsDevelopment: app.attestedApps.appleDevelopment))
        let clientDataHash = AppAttestClientData.hash(
            challenge: subject.challenge, deviceKeyID: subject.deviceKey.thumbprint,
            biometricKeyID: subject.biometricKey?.thumbprint)
        let attested = try verifier.verify(
            attestationObject: object, keyID: keyID, clientDataHash: clientDataHash, at: clock.now())
        return DeviceAttestation(
            kind: .appleAppAttest, appAttestKeyId: Base64URL.encode(attested.keyID),
            appAttestPublicKey: Base64URL.encode(attested.publicKey.x963Representation),
            appAttestReceipt: Base64URL.encode(attested.receipt),
            build: .apple(appID: attested.appID, development: attested.environment == .development))
    }
}
