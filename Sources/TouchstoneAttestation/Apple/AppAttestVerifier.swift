import Crypto
import Foundation
import TouchstoneWebAuthn
import X509

/// Verifies an Apple App Attest attestation as Apple's "Validating apps that connect to your server" describes.
///
/// Pure: the time and the trust anchors are given; the receipt is returned, not validated.
public struct AppAttestVerifier: Sendable {
    /// Which apps and environments are accepted.
    public let policy: AppAttestPolicy
    private let validator: CertificateChainValidator

    /// A verifier for attestations up to `trustAnchors`, for the apps of `policy`.
    /// - Parameters:
    ///   - trustAnchors: the roots a chain may end at (the Apple App Attestation Root CA built in).
    ///   - policy: the App IDs and environments allowed.
    public init(trustAnchors: AttestationTrustAnchors = AttestationTrustAnchors(), policy: AppAttestPolicy) {
        self.policy = policy
        validator = CertificateChainValidator(anchors: trustAnchors.apple, statusList: AttestationStatusList())
    }

    /// Verifies an attestation object made for `keyID` with `clientDataHash`.
    ///
    /// Checks, in Apple's order: the x5c chain up to a trusted root at `time`; the leaf's nonce extension equals
    /// SHA-256(authData ‖ clientDataHash); `keyID` is SHA-256 of the leaf's uncompressed P-256 point; `rpIdHash` is
    /// SHA-256 of an allowed App ID; the counter is 0; the AAGUID names an allowed environment; the credential ID is
    /// `keyID`. Extension bytes after the credential key with the ED flag clear are tolerated.
    /// - Parameters:
    ///   - attestationObject: the CBOR attestation object.
    ///   - keyID: the key identifier the app sent (32 bytes).
    ///   - clientDataHash: the bytes the app passed to `attestKey` — Touchstone's SHA-256 of its client data.
    ///   - time: the verification time (now).
    /// - Returns: the attested key, its App ID, environment and receipt.
    /// - Throws: ``AttestationError`` naming the first check that fails.
    public func verify(
        attestationObject: [UInt8], keyID: [UInt8], clientDataHash: [UInt8], at time: Date
    ) throws(AttestationError) -> AppAttestation {
        let object = try AppAttestObject(bytes: attestationObject)
        try validator.validate(object.certificates, at: time)
        let leaf = object.certificates[0]
        let nonce = Array(SHA256.hash(data: object.authenticatorData + clientDataHash))
        guard let ext = leaf.extensions[oid: AppleAttestation.nonceExtension],
            let certified = try? AppleAttestation.certifiedNonce(ext.value), certified == nonce
        else {
            throw AttestationError(.nonceMismatch, "the leaf's nonce is not SHA-256(authData ‖ clientDataHash)")
        }
        guard let key = P256.Signing.PublicKey(leaf.publicKey),
            Array(SHA256.hash(data: key.x963Representation)) == keyID
        else {
            throw AttestationError(.keyIDMismatch, "keyId is not SHA-256 of the leaf's P-256 point")
        }
        let authenticatorData = try AppAttestAuthenticatorData.parse(object.authenticatorData)
        let appID = policy.allowedAppIDs.first { Array(SHA256.hash(data: Data($0.utf8))) == authenticatorData.rpIdHash }
        guard let appID else {
            throw AttestationError(.appIDNotAllowed, "rpIdHash is the hash of no allowed App ID")
        }
        guard authenticatorData.signCount == 0 else {
            throw AttestationError(.counterNotZero, "the counter is \(authenticatorData.signCount)")
        }
        guard let credential = authenticatorData.attestedCredentialData else {
            throw AttestationError(.malformedAuthenticatorData, "no attested credential data")
        }
        let environment = try allowedEnvironment(aaguid: credential.aaguid)
        guard credential.credentialID == keyID else {
            throw AttestationError(.credentialIDMismatch, "the credential ID is not keyId")
        }
        return AppAttestation(
            publicKey: key, keyID: keyID, appID: appID, environment: environment,
            receipt: object.receipt)
    }

    private func allowedEnvironment(aaguid: [UInt8]) throws(AttestationError) -> AppAttestEnvironment {
        switch AppAttestEnvironment(aaguid: aaguid) {
        case .production: return .production
        case .development where policy.allowsDevelopment: return .development
        case .development: throw AttestationError(.environmentNotAllowed, "development keys are not allowed here")
        case nil: throw AttestationError(.environmentNotAllowed, "the AAGUID names no App Attest environment")
        }
    }
}
