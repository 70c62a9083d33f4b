import Foundation

/// The safe, high-level passkey API: one start/finish pair per intent, with the policy built in.
///
/// User verification is required, discoverable credentials (passkeys) are requested, cross-origin use follows the
/// relying party's configuration, the signature counter may not go backwards, and ceremony state is an opaque value
/// the server keeps. Pure: the caller supplies the challenge bytes and the time.
///
/// ```swift
/// let passkeys = try Passkeys(relyingParty: .init(id: "example.org", name: "Example", origins: ["https://example.org"]))
/// let (options, state) = try passkeys.startRegistration(user: user, challenge: random32Bytes, now: now)
/// // send `options`, keep `state` server-side …
/// let credential = try await passkeys.finishRegistration(response: response, state: state, now: now)
/// ```
public struct Passkeys: Sendable {
    /// The relying party.
    public let relyingParty: RelyingPartyConfiguration
    /// The attestation policy (``AttestationPolicy/notRequired`` by default).
    public let attestation: AttestationPolicy
    /// The algorithms offered, in order of preference.
    public let algorithms: [COSEAlgorithm]
    /// How long the user has to complete a ceremony.
    public let timeout: Duration
    /// Whether user verification may be skipped (options ask for `preferred` and UV is not enforced).
    public let dangerousUserVerificationNotRequired: Bool

    /// - Parameters:
    ///   - relyingParty: the validated relying-party configuration.
    ///   - attestation: what attestation to ask for and accept.
    ///   - algorithms: the algorithms to offer; each must be in ``COSEAlgorithm/supported``.
    ///   - timeout: the ceremony timeout, 30 seconds to 10 minutes.
    ///   - dangerousUserVerificationNotRequired: accept passkeys used without user verification, so that possession
    ///     of the authenticator alone signs the user in. Leave it false.
    /// - Throws: ``WebAuthnError`` with code `invalid_configuration`.
    public init(
        relyingParty: RelyingPartyConfiguration, attestation: AttestationPolicy = .notRequired,
        algorithms: [COSEAlgorithm] = COSEAlgorithm.supported, timeout: Duration = .seconds(300),
        dangerousUserVerificationNotRequired: Bool = false
    ) throws(WebAuthnError) {
        guard !algorithms.isEmpty, algorithms.allSatisfy(\.isSupported) else {
            throw WebAuthnError(.invalidConfiguration, "offer one or more of \(COSEAlgorithm.supported)")
        }
        guard timeout >= .seconds(30), timeout <= .seconds(600) else {
            throw WebAuthnError(.invalidConfiguration, "timeout must be between 30 seconds and 10 minutes")
        }
        self.relyingParty = relyingParty
        self.attestation = attestation
        self.algorithms = algorithms
        self.timeout = timeout
        self.dangerousUserVerificationNotRequired = dangerousUserVerificationNotRequired
    }

    private var userVerification: UserVerificationRequirement {
        dangerousUserVerificationNotRequired ? .preferred : .required
    }

    private var timeoutMilliseconds: UInt32 {
        UInt32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    }

    private func expiry(from now: Date) -> Date {
        now.addingTimeInterval(Double(timeoutMilliseconds) / 1000)
    }

    private static func requireChallenge(_ challenge: [UInt8]) throws(WebAuthnError) {
        guard challenge.count >= 16 else {
            throw WebAuthnError(.invalidChallenge, "challenges must be at least 16 random bytes (32 recommended)")
        }
    }

    // MARK: - Registration

    /// Starts registering a passkey for `user`.
    /// - Parameters:
    ///   - user: the account; its `id` is the user handle (1–64 bytes).
    ///   - challenge: fresh random bytes for this ceremony, at least 16.
    ///   - excludeCredentials: the account's existing credentials, so that an authenticator is not registered twice.
    ///   - now: the current time; the state expires after ``timeout``.
    /// - Returns: the options to send to the browser and the state to keep.
    /// - Throws: ``WebAuthnError`` (`invalid_challenge`, `invalid_user`).
    /// - ⚠️ `challenge` must come from a cryptographically secure generator and never be reused.
    public func startRegistration(
        user: PasskeyUser, challenge: [UInt8], excludeCredentials: [Credential] = [], now: Date
    ) throws(WebAuthnError) -> (options: PublicKeyCredentialCreationOptionsJSON, state: RegistrationState) {
        try Self.requireChallenge(challenge)
        guard (1...64).contains(user.id.count) else {
            throw WebAuthnError(.invalidUser, "user handles are 1–64 bytes")
        }
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(id: relyingParty.id, name: relyingParty.name),
            user: PublicKeyCredentialUserEntityJSON(id: Base64URLBytes(user.id), name: user.name, displayName: user.displayName),
            challenge: Base64URLBytes(challenge),
            pubKeyCredParams: algorithms.map { PublicKeyCredentialParameters(alg: $0) },
            timeout: timeoutMilliseconds,
            excludeCredentials: excludeCredentials.map(Self.descriptor),
            authenticatorSelection: AuthenticatorSelectionCriteria(
                residentKey: .required, requireResidentKey: true, userVerification: userVerification),
            attestation: attestation.conveyance.rawValue)
        let state = RegistrationState(
            relyingPartyID: relyingParty.id, challenge: Base64URLBytes(challenge), userHandle: Base64URLBytes(user.id),
            requiresUserVerification: !dangerousUserVerificationNotRequired, algorithms: algorithms,
            excludedCredentialIDs: excludeCredentials.map { Base64URLBytes($0.id) }, expiresAt: expiry(from: now))
        return (options, state)
    }

    /// Finishes a registration: verifies the browser's response against the state (WebAuthn §7.1).
    /// - Parameters:
    ///   - response: the `RegistrationResponseJSON` the browser produced (`credential.toJSON()`).
    ///   - state: the state from ``startRegistration(user:challenge:excludeCredentials:now:)``.
    ///   - now: the current time, for the state's expiry and attestation certificate validity.
    /// - Returns: the credential record to store.
    /// - Throws: ``WebAuthnError``.
    /// - ⚠️ Delete the state before calling (a state is good for one attempt), and refuse the credential if its ID is
    ///   already registered to any user (§7.1 step 26).
    public func finishRegistration(
        response: RegistrationResponseJSON, state: RegistrationState, now: Date
    ) async throws(WebAuthnError) -> Credential {
        try Self.requireState(relyingPartyID: state.relyingPartyID, expiresAt: state.expiresAt, relyingParty, now)
        try Self.requireEnvelope(type: response.type, id: response.id, rawId: response.rawId)
        let verifier = RegistrationVerifier(relyingParty: relyingParty, attestationPolicy: attestation)
        let registration = try await verifier.verify(
            clientDataJSON: response.response.clientDataJSON.bytes,
            attestationObject: response.response.attestationObject.bytes,
            transports: response.response.transports ?? [],
            expecting: RegistrationExpectations(
                challenge: state.challenge.bytes, userHandle: state.userHandle.bytes,
                requiresUserVerification: state.requiresUserVerification, algorithms: state.algorithms,
                excludedCredentialIDs: state.excludedCredentialIDs.map(\.bytes)),
            now: now)
        guard registration.credential.id == response.rawId.bytes else {
            throw WebAuthnError(.malformedResponse, "rawId is not the credential ID in the authenticator data")
        }
        if let copy = response.response.authenticatorData, copy.bytes != registration.authenticatorData.bytes {
            throw WebAuthnError(.malformedResponse, "authenticatorData differs from the attestation object's")
        }
        return registration.credential
    }

    // MARK: - Authentication

    /// Starts authenticating the user who owns `credentials` (identified beforehand, by username say).
    /// - Parameters:
    ///   - credentials: the account's credentials, all with the same user handle; at least one.
    ///   - challenge: fresh random bytes for this ceremony, at least 16.
    ///   - now: the current time; the state expires after ``timeout``.
    /// - Throws: ``WebAuthnError`` (`invalid_challenge`, `invalid_user`).
    /// - ⚠️ `challenge` must come from a cryptographically secure generator and never be reused.
    public func startAuthentication(
        credentials: [Credential], challenge: [UInt8], now: Date
    ) throws(WebAuthnError) -> (options: PublicKeyCredentialRequestOptionsJSON, state: AuthenticationState) {
        guard let user = credentials.first?.userHandle, credentials.allSatisfy({ $0.userHandle == user }) else {
            throw WebAuthnError(.invalidUser, "credentials must be those of one user, at least one")
        }
        return try startAuthentication(
            userHandle: user, allowCredentials: credentials.map(Self.descriptor), challenge: challenge, now: now)
    }

    /// Starts authenticating an identified user with explicit `allowCredentials`: the account's credentials, or
    /// plausible stand-ins for an unknown username (they never verify).
    /// - Throws: ``WebAuthnError`` (`invalid_challenge`, `invalid_user`).
    /// - ⚠️ `challenge` must come from a cryptographically secure generator and never be reused.
    public func startAuthentication(
        userHandle: [UInt8], allowCredentials: [PublicKeyCredentialDescriptorJSON], challenge: [UInt8], now: Date
    ) throws(WebAuthnError) -> (options: PublicKeyCredentialRequestOptionsJSON, state: AuthenticationState) {
        try Self.requireChallenge(challenge)
        guard !allowCredentials.isEmpty, (1...64).contains(userHandle.count) else {
            throw WebAuthnError(.invalidUser, "an identified user needs a 1–64 byte handle and at least one credential")
        }
        return makeAuthentication(
            challenge: challenge, allowCredentials: allowCredentials, identifiedUser: userHandle, now: now)
    }

    /// Starts authenticating with a discoverable credential: the user picks a passkey, which names the account.
    /// - Throws: ``WebAuthnError`` (`invalid_challenge`).
    /// - ⚠️ `challenge` must come from a cryptographically secure generator and never be reused.
    public func startDiscoverableAuthentication(
        challenge: [UInt8], now: Date
    ) throws(WebAuthnError) -> (options: PublicKeyCredentialRequestOptionsJSON, state: AuthenticationState) {
        try Self.requireChallenge(challenge)
        return makeAuthentication(challenge: challenge, allowCredentials: [], identifiedUser: nil, now: now)
    }

    private func makeAuthentication(
        challenge: [UInt8], allowCredentials: [PublicKeyCredentialDescriptorJSON], identifiedUser: [UInt8]?, now: Date
    ) -> (options: PublicKeyCredentialRequestOptionsJSON, state: AuthenticationState) {
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URLBytes(challenge), timeout: timeoutMilliseconds, rpId: relyingParty.id,
            allowCredentials: allowCredentials, userVerification: userVerification)
        let state = AuthenticationState(
            relyingPartyID: relyingParty.id, challenge: Base64URLBytes(challenge),
            requiresUserVerification: !dangerousUserVerificationNotRequired,
            allowedCredentialIDs: allowCredentials.map(\.id), identifiedUser: identifiedUser.map(Base64URLBytes.init),
            expiresAt: expiry(from: now))
        return (options, state)
    }

    /// Finishes an authentication: verifies the browser's response against the state and the stored credential
    /// (WebAuthn §7.2).
    /// - Parameters:
    ///   - response: the `AuthenticationResponseJSON` the browser produced.
    ///   - state: the state from one of the `start…Authentication` calls.
    ///   - credential: the stored credential whose ID is `response.rawId` (for discoverable credentials, look it up
    ///     by `rawId`; its user handle must match `response.response.userHandle`).
    ///   - now: the current time, for the state's expiry.
    /// - Returns: the new counter and backup state; store them with ``Credential/update(from:)``.
    /// - Throws: ``WebAuthnError``; `credential_possibly_cloned` when the counter went backwards.
    /// - ⚠️ Delete the state before calling, and store the update atomically with accepting the login.
    public func finishAuthentication(
        response: AuthenticationResponseJSON, state: AuthenticationState, credential: Credential, now: Date
    ) throws(WebAuthnError) -> AuthenticationResult {
        try Self.requireState(relyingPartyID: state.relyingPartyID, expiresAt: state.expiresAt, relyingParty, now)
        try Self.requireEnvelope(type: response.type, id: response.id, rawId: response.rawId)
        let userHandle = response.response.userHandle.flatMap { $0.bytes.isEmpty ? nil : $0.bytes }
        return try AuthenticationVerifier(relyingParty: relyingParty).verify(
            credentialID: response.rawId.bytes,
            clientDataJSON: response.response.clientDataJSON.bytes,
            authenticatorData: response.response.authenticatorData.bytes,
            signature: response.response.signature.bytes,
            userHandle: userHandle,
            expecting: AuthenticationExpectations(
                challenge: state.challenge.bytes, requiresUserVerification: state.requiresUserVerification,
                allowedCredentialIDs: state.allowedCredentialIDs.map(\.bytes), identifiedUser: state.identifiedUser?.bytes),
            credential: credential)
    }

    // MARK: - Shared checks

    private static func descriptor(_ credential: Credential) -> PublicKeyCredentialDescriptorJSON {
        PublicKeyCredentialDescriptorJSON(
            id: Base64URLBytes(credential.id), transports: credential.transports.isEmpty ? nil : credential.transports)
    }

    private static func requireState(
        relyingPartyID: String, expiresAt: Date, _ relyingParty: RelyingPartyConfiguration, _ now: Date
    ) throws(WebAuthnError) {
        guard relyingPartyID == relyingParty.id else {
            throw WebAuthnError(.ceremonyMismatch, "state was made for RP ID \(relyingPartyID)")
        }
        guard now < expiresAt else { throw WebAuthnError(.ceremonyExpired, "state expired at \(expiresAt)") }
    }

    /// §7.1/§7.2 step 3: the response is a public-key credential, and its `id` is the encoding of its `rawId`.
    private static func requireEnvelope(type: String, id: String, rawId: Base64URLBytes) throws(WebAuthnError) {
        guard type == "public-key" else { throw WebAuthnError(.malformedResponse, "type \(type)") }
        guard id == rawId.base64URL else { throw WebAuthnError(.malformedResponse, "id is not the encoding of rawId") }
    }
}
