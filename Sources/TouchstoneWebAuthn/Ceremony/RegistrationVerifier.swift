import Crypto
import Foundation

/// The registration ceremony's verification (WebAuthn Level 3 §7.1, "Registering a New Credential"), step by step.
///
/// This is the specification layer: it takes the raw response bytes and the ceremony's expectations. Most callers
/// want ``Passkeys``, which keeps the expectations in a ``RegistrationState``.
public struct RegistrationVerifier: Sendable {
    /// The relying party.
    public let relyingParty: RelyingPartyConfiguration
    /// The attestation policy (§7.1 steps 21–24).
    public let attestationPolicy: AttestationPolicy

    /// - Parameters:
    ///   - relyingParty: the validated relying-party configuration (RP ID, origins, cross-origin policy).
    ///   - attestationPolicy: which attestations to accept; ``AttestationPolicy/notRequired`` suits passkeys.
    public init(relyingParty: RelyingPartyConfiguration, attestationPolicy: AttestationPolicy = .notRequired) {
        self.relyingParty = relyingParty
        self.attestationPolicy = attestationPolicy
    }

    /// Verifies a registration response.
    /// - Parameters:
    ///   - clientDataJSON: `response.clientDataJSON`.
    ///   - attestationObject: `response.attestationObject`.
    ///   - transports: `response.transports` (`getTransports()`); unknown values are dropped.
    ///   - expectations: what the ceremony's options asked for.
    ///   - now: the time at which attestation certificates must be valid.
    /// - Returns: the credential record to store, and what the ceremony established.
    /// - Throws: ``WebAuthnError``.
    /// - ⚠️ §7.1 step 26: refuse the credential if its ID is already registered to any user; only the IDs in
    ///   ``RegistrationExpectations/excludedCredentialIDs`` are checked here.
    /// - ⚠️ The challenge must be single-use: discard the ceremony state before or as you call this.
    public func verify(
        clientDataJSON: [UInt8], attestationObject: [UInt8], transports: [String] = [],
        expecting expectations: RegistrationExpectations, now: Date
    ) async throws(WebAuthnError) -> VerifiedRegistration {
        // §7.1 steps 1–4 (options, create(), the response type, client extension results) happen in the browser and
        // in decoding the RegistrationResponseJSON; this verifier starts from the response's bytes.
        for algorithm in expectations.algorithms where !algorithm.isSupported {
            throw WebAuthnError(.invalidConfiguration, "pubKeyCredParams offers unsupported \(algorithm)")
        }
        guard (1...64).contains(expectations.userHandle.count) else {
            throw WebAuthnError(.invalidUser, "user handles are 1–64 bytes")
        }

        // §7.1 step 5: let JSONtext be the UTF-8 decoding of response.clientDataJSON (a BOM is stripped).
        // §7.1 step 6: let C be the result of parsing JSONtext as JSON.
        let clientData = try CollectedClientData(json: clientDataJSON)

        // §7.1 step 7: verify that the value of C.type is webauthn.create.
        guard clientData.type == "webauthn.create" else {
            throw WebAuthnError(.clientDataTypeMismatch, "type \(clientData.type)")
        }

        // §7.1 step 8: verify that the value of C.challenge equals the base64url encoding of pkOptions.challenge.
        guard clientData.challenge == Base64URL.encode(expectations.challenge) else {
            throw WebAuthnError(.challengeMismatch, "registration challenge differs")
        }

        // §7.1 step 9: verify that the value of C.origin is an origin expected by the Relying Party.
        try relyingParty.requireOrigin(clientData)

        // §7.1 step 10: if C.crossOrigin is present and true, verify that the Relying Party expects this credential
        // to be created within an iframe that is not same-origin with its ancestors.
        try relyingParty.requireCrossOrigin(clientData)

        // §7.1 step 11: if C.topOrigin is present, verify that the Relying Party expects cross-origin iframes and
        // that C.topOrigin is the origin of a page it expects to be sub-framed within.
        try relyingParty.requireTopOrigin(clientData)

        // §7.1 step 12: let hash be SHA-256 over response.clientDataJSON.
        let clientDataHash = Array(SHA256.hash(data: clientDataJSON))

        // §7.1 step 13: CBOR-decode the attestationObject to obtain fmt, authData and attStmt.
        let attestation = try AttestationObject(bytes: attestationObject)
        let authData = attestation.authenticatorData
        guard let attested = authData.attestedCredentialData else {
            throw WebAuthnError(.missingAttestedCredentialData, "AT flag clear in a registration")
        }

        // §7.1 step 14: verify that the rpIdHash in authData is SHA-256 of the RP ID expected by the Relying Party.
        guard authData.rpIdHash == relyingParty.rpIdHash else {
            throw WebAuthnError(.rpIdHashMismatch, "registration rpIdHash is not SHA-256(\(relyingParty.id))")
        }

        // §7.1 step 15: verify that the UP bit of the flags in authData is set (conditional create is not offered).
        guard authData.flags.contains(.userPresent) else {
            throw WebAuthnError(.userNotPresent, "UP flag clear in registration")
        }

        // §7.1 step 16: if the Relying Party requires user verification, verify that the UV bit is set.
        let userVerified = authData.flags.contains(.userVerified)
        if expectations.requiresUserVerification && !userVerified {
            throw WebAuthnError(.userNotVerified, "UV flag clear in registration")
        }

        // §7.1 step 17: if the BE bit of the flags in authData is not set, verify that the BS bit is not set.
        let backupEligible = authData.flags.contains(.backupEligible)
        let backupState = authData.flags.contains(.backupState)
        if !backupEligible && backupState {
            throw WebAuthnError(.backupStateWithoutEligibility, "BS set without BE in registration")
        }

        // §7.1 steps 18–19: BE and BS are evaluated by the caller's policy: they are recorded in the credential.

        // §7.1 step 20: verify that the "alg" of the credential public key is one of pkOptions.pubKeyCredParams.
        let credentialKey = try attested.credentialPublicKey()
        guard expectations.algorithms.contains(credentialKey.algorithm) else {
            throw WebAuthnError(.algorithmNotAllowed, "credential algorithm \(credentialKey.algorithm) was not offered")
        }

        // §7.1 step 28 (after step 27 in Level 3; nothing is done, so its place here does not matter): client and
        // authenticator extension outputs. No extensions are requested; unsolicited authenticator outputs (already
        // checked to be a map keyed by identifiers) and client outputs are ignored.

        // §7.1 step 21: match fmt, case-sensitively, against the supported attestation statement formats.
        guard let format = AttestationFormat(rawValue: attestation.format), attestationPolicy.formats.contains(format) else {
            throw WebAuthnError(.unsupportedAttestationFormat, "fmt \(attestation.format)")
        }

        // §7.1 step 22: verify attStmt with the format's verification procedure given attStmt, authData and hash.
        let statement = try AttestationStatementVerifier.verify(
            format,
            AttestationInput(
                statement: attestation.statement, authenticatorData: authData, credential: attested,
                credentialKey: credentialKey, clientDataHash: clientDataHash, policy: attestationPolicy))

        // §7.1 step 23: obtain the acceptable trust anchors for the format from policy.
        let anchors = attestationPolicy.trustAnchors[format] ?? []

        // §7.1 step 24: assess the attestation's trustworthiness.
        var attestationType = statement.type
        var trustPath = statement.trustPath
        switch statement.type {
        case .none:
            guard attestationPolicy.acceptsNoAttestation else {
                throw WebAuthnError(.attestationNotTrusted, "none attestation is not acceptable")
            }
        case .selfAttestation:
            guard attestationPolicy.acceptsSelfAttestation else {
                throw WebAuthnError(.attestationNotTrusted, "self attestation is not acceptable")
            }
        default:
            if await !AttestationTrust.chains(trustPath, to: anchors, format: format, at: now) {
                // §7.1 step 24: a verified attestation that is not trustworthy fails the ceremony, unless policy
                // registers the credential as if it were self attested.
                guard attestationPolicy.acceptsUntrustedAttestation && attestationPolicy.acceptsSelfAttestation else {
                    throw WebAuthnError(.attestationNotTrusted, "\(format.rawValue) trust path reaches no trust anchor")
                }
                attestationType = .selfAttestation
                trustPath = []
            }
        }

        // §7.1 step 25: verify that the credentialId is at most 1023 bytes.
        guard attested.credentialID.count <= 1023 else {
            throw WebAuthnError(.credentialIdTooLong, "credential ID of \(attested.credentialID.count) bytes")
        }

        // §7.1 step 26: verify that the credentialId is not yet registered (here: not one the options excluded).
        guard !expectations.excludedCredentialIDs.contains(attested.credentialID) else {
            throw WebAuthnError(.credentialExcluded, "credential ID is already registered")
        }

        // §7.1 step 27: let credentialRecord be a new credential record (step 29, storing it, is the caller's).
        let known: Set<String> = ["usb", "nfc", "ble", "smart-card", "hybrid", "internal"]
        var recordedTransports: [String] = []
        for transport in transports where known.contains(transport) && !recordedTransports.contains(transport) {
            recordedTransports.append(transport)
        }
        let credential = Credential(
            verifiedID: attested.credentialID, publicKey: attested.credentialPublicKeyBytes, signCount: authData.signCount,
            backupEligible: backupEligible, backupState: backupState, uvInitialized: userVerified,
            aaguid: attested.aaguid, attestationFormat: format.rawValue, attestationType: attestationType,
            transports: recordedTransports, userHandle: expectations.userHandle)
        return VerifiedRegistration(
            credential: credential, credentialPublicKey: credentialKey, attestationType: attestationType,
            trustPath: trustPath, userVerified: userVerified, clientData: clientData, authenticatorData: authData)
    }
}
