import Crypto

/// The authentication ceremony's verification (WebAuthn Level 3 §7.2, "Verifying an Authentication Assertion"),
/// step by step.
///
/// This is the specification layer: it takes the raw response bytes, the ceremony's expectations and the stored
/// credential record. Most callers want ``Passkeys``, which keeps the expectations in an ``AuthenticationState``.
public struct AuthenticationVerifier: Sendable {
    /// The relying party.
    public let relyingParty: RelyingPartyConfiguration

    /// - Parameter relyingParty: the validated relying-party configuration (RP ID, origins, cross-origin policy).
    public init(relyingParty: RelyingPartyConfiguration) {
        self.relyingParty = relyingParty
    }

    /// Verifies an assertion.
    /// - Parameters:
    ///   - credentialID: `rawId`.
    ///   - clientDataJSON, authenticatorData, signature: from `response`.
    ///   - userHandle: `response.userHandle`, if the browser sent one.
    ///   - expectations: what the ceremony's options asked for.
    ///   - credential: the stored credential record whose ID is `credentialID`.
    /// - Returns: the new state to store with ``Credential/update(from:)``.
    /// - Throws: ``WebAuthnError``; ``WebAuthnError/Code/credentialPossiblyCloned`` when the counter did not increase.
    /// - ⚠️ The challenge must be single-use: discard the ceremony state before or as you call this.
    /// - ⚠️ Store the result with ``Credential/update(from:)`` atomically with accepting the login, so that a replayed
    ///   counter is caught next time.
    public func verify(
        credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        userHandle: [UInt8]?, expecting expectations: AuthenticationExpectations, credential: Credential
    ) throws(WebAuthnError) -> AuthenticationResult {
        // §7.2 steps 1–4 (options, get(), the response type, client extension results) happen in the browser and in
        // decoding the AuthenticationResponseJSON; this verifier starts from the response's bytes.

        // §7.2 step 5: if allowCredentials is not empty, verify that credential.id is one of them.
        if !expectations.allowedCredentialIDs.isEmpty && !expectations.allowedCredentialIDs.contains(credentialID) {
            throw WebAuthnError(.credentialNotAllowed, "credential is not in allowCredentials")
        }

        // §7.2 step 6: identify the user and the credential record.
        guard credential.id == credentialID else {
            throw WebAuthnError(.credentialNotAllowed, "the credential record is not the asserted credential")
        }
        if let identifiedUser = expectations.identifiedUser {
            // The user was identified before the ceremony: the account must hold the credential, and a userHandle,
            // if present, must be the account's.
            guard credential.userHandle == identifiedUser else {
                throw WebAuthnError(.credentialNotAllowed, "the credential belongs to another account")
            }
            if let userHandle, userHandle != identifiedUser {
                throw WebAuthnError(.userHandleMismatch, "userHandle is not the identified account's")
            }
        } else {
            // The user was not identified: userHandle must be present and name the account that holds the credential.
            guard let userHandle else { throw WebAuthnError(.userHandleMissing, "discoverable assertion without userHandle") }
            guard userHandle == credential.userHandle else {
                throw WebAuthnError(.userHandleMismatch, "userHandle is not the credential's account")
            }
        }

        // §7.2 step 7: let cData, authData and sig be clientDataJSON, authenticatorData and signature.
        let authData = try AuthenticatorData(bytes: authenticatorData)

        // §7.2 step 8: let JSONtext be the UTF-8 decoding of cData (a BOM is stripped).
        // §7.2 step 9: let C be the result of parsing JSONtext as JSON.
        let clientData = try CollectedClientData(json: clientDataJSON)

        // §7.2 step 10: verify that the value of C.type is the string webauthn.get.
        guard clientData.type == "webauthn.get" else {
            throw WebAuthnError(.clientDataTypeMismatch, "type \(clientData.type)")
        }

        // §7.2 step 11: verify that the value of C.challenge equals the base64url encoding of pkOptions.challenge.
        guard clientData.challenge == Base64URL.encode(expectations.challenge) else {
            throw WebAuthnError(.challengeMismatch, "authentication challenge differs")
        }

        // §7.2 step 12: verify that the value of C.origin is an origin expected by the Relying Party.
        try relyingParty.requireOrigin(clientData)

        // §7.2 step 13: if C.crossOrigin is present and true, verify that the Relying Party expects this credential to
        // be used within an iframe that is not same-origin with its ancestors.
        try relyingParty.requireCrossOrigin(clientData)

        // §7.2 step 14: if C.topOrigin is present, verify that the Relying Party expects cross-origin iframes and
        // that C.topOrigin is the origin of a page it expects to be sub-framed within.
        try relyingParty.requireTopOrigin(clientData)

        // §7.2 step 15: verify that the rpIdHash in authData is SHA-256 of the RP ID expected by the Relying Party.
        guard authData.rpIdHash == relyingParty.rpIdHash else {
            throw WebAuthnError(.rpIdHashMismatch, "assertion rpIdHash is not SHA-256(\(relyingParty.id))")
        }

        // §7.2 step 16: verify that the UP bit of the flags in authData is set.
        guard authData.flags.contains(.userPresent) else {
            throw WebAuthnError(.userNotPresent, "UP flag clear in assertion")
        }

        // §7.2 step 17: if user verification is required for this assertion, verify that the UV bit is set.
        let userVerified = authData.flags.contains(.userVerified)
        if expectations.requiresUserVerification && !userVerified {
            throw WebAuthnError(.userNotVerified, "UV flag clear in assertion")
        }

        // §7.2 step 18: if the BE bit of the flags in authData is not set, verify that the BS bit is not set.
        let currentBE = authData.flags.contains(.backupEligible)
        let currentBS = authData.flags.contains(.backupState)
        if !currentBE && currentBS {
            throw WebAuthnError(.backupStateWithoutEligibility, "BS set without BE in assertion")
        }

        // §7.2 step 19: compare BE and BS with the credential record: BE must not change; BS may, and is reported.
        guard currentBE == credential.backupEligible else {
            throw WebAuthnError(.backupEligibilityChanged, "BE was \(credential.backupEligible), is \(currentBE)")
        }

        // §7.2 step 23 (after step 22 in Level 3; nothing is done, so its place here does not matter): client and
        // authenticator extension outputs. No extensions are requested; unsolicited outputs are ignored
        // (authenticator outputs are reported for information).

        // §7.2 step 20: let hash be SHA-256 over cData.
        let clientDataHash = Array(SHA256.hash(data: clientDataJSON))

        // §7.2 step 21: using credentialRecord.publicKey, verify that sig is a valid signature over authData ‖ hash.
        let publicKey = try COSEKey(bytes: credential.publicKey)
        guard publicKey.isValidSignature(signature, for: authenticatorData + clientDataHash) else {
            throw WebAuthnError(.signatureInvalid, "assertion signature does not verify")
        }

        // §7.2 step 22: if authData.signCount or the stored signCount is nonzero, the new count must be greater than
        // the stored one; otherwise the authenticator may have been cloned, and the ceremony fails.
        if authData.signCount != 0 || credential.signCount != 0 {
            guard authData.signCount > credential.signCount else {
                throw WebAuthnError(
                    .credentialPossiblyCloned, "signCount \(authData.signCount) after \(credential.signCount)")
            }
        }

        // An attestationObject in the assertion is not requested and not verified (Level 3 §7.2 has no step for it).

        // §7.2 step 24: the new state (signCount, BS, uvInitialized) is returned for the caller to store; step 25
        // (continue the ceremony, or fail it) is the caller's.
        return AuthenticationResult(
            credentialID: credentialID, userHandle: credential.userHandle, signCount: authData.signCount,
            backupEligible: currentBE, backupState: currentBS, userVerified: userVerified,
            authenticatorExtensions: authData.extensions)
    }
}
