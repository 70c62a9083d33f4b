import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

extension TouchstoneClient {
    /// Registers this device: the password, then a device key, a biometric key (where a sensor is available and
    /// the policy allows it) and the PIN, each key proving possession.
    ///
    /// Nothing is kept on the device unless the server accepts the registration. When this device is registered
    /// already (for the same server and username, e.g. with a locked PIN), its old device key proves that the new
    /// registration replaces it: no approval is needed, and the old registration stays usable until the server
    /// accepts the new one.
    /// - Parameters:
    ///   - pin: the app PIN the user picked; checked against the app's policy before anything is sent.
    ///   - prompt: shown when the biometric key is first used.
    ///   - recoveryCode: one of the account's recovery codes, when no other device of the user is at hand to approve
    ///     this one (a lost phone): the registration then completes without approval and spends the code.
    /// - Returns: the first session.
    /// - Throws: ``TouchstoneError``: `deviceCompromised` (before anything is sent), `invalidPIN`,
    ///   `userCancelled`, `approvalDenied`, `approvalExpired`, `server` (`invalid_credentials` — also for a wrong or
    ///   used recovery code —, `recovery_code_required` when the user has no device to approve but has recovery
    ///   codes or a passkey, …).
    /// - ⚠️ The password and the recovery code are sent to the server once and never kept.
    /// - Parameter onApprovalPending: called when another of the user's devices must approve this one; show its
    ///   `number`, which the user picks there. The call then waits for the decision (cancel the task to stop
    ///   waiting: nothing is kept).
    @discardableResult
    public func register(
        username: String, password: String, pin: String?, prompt: String = "Use your fingerprint to log in",
        recoveryCode: String? = nil, onApprovalPending: (@Sendable (EnrollmentPending) async -> Void)? = nil
    ) async throws -> Session {
        try await checkIntegrity()
        let policy = try await policy()
        if let pin, let problem = policy.pinProblem(pin) { throw TouchstoneError(.invalidPIN, problem) }
        var useBiometric = false
        if policy.biometricAllowed, case .available = await platform.verifier.biometryState() {
            useBiometric = true
        }
        if pin == nil, policy.pinRequired || !useBiometric {
            throw TouchstoneError(.invalidPIN, "a PIN is required")
        }

        let started = try await call(
            Endpoint.startEnrollment.method, Endpoint.startEnrollment.path(),
            body: EnrollmentStartRequest(
                clientId: clientID, username: username, password: password, recoveryCode: recoveryCode),
            as: EnrollmentStarted.self)
        let deviceKey = try await keyStore.makeDeviceKey()
        var biometricKey: (any DeviceKey)?
        if useBiometric {
            do {
                try await platform.verifier.verify(prompt: prompt)
                biometricKey = try await keyStore.makeBiometricKey()
            } catch let error as TouchstoneError where [.userFallback, .biometryLockout].contains(error.code) {
                // The user prefers the PIN now: register without a biometric key, if there is a PIN.
                guard pin != nil else { throw error }
            }
        }

        let (identity, _) = try await fingerprint()
        let times = tokenTimes()
        let proof = ProofClaims(
            iss: started.enrollmentId, aud: issuer, iat: times.iat, exp: times.exp, nonce: started.challenge)
        let replaced = await registrationReplaced(by: username)
        let attestation = try await platform.attestor?.attest(
            KeyAttestationSubject(
                challenge: started.challenge, deviceKey: deviceKey.publicKey, biometricKey: biometricKey?.publicKey))
        let completion = EnrollmentCompletion(
            device: DeviceDescription(
                name: identity.name, model: identity.model, vendorId: identity.vendorId, os: identity.os,
                compromised: false),
            deviceKey: deviceKey.publicKey.jwk, biometricKey: biometricKey?.publicKey.jwk, pin: pin,
            deviceProof: try await deviceKey.sign(proof), biometricProof: try await biometricKey?.sign(proof),
            previousDeviceProof: try await replaced?.deviceKey.sign(proof), attestation: attestation)
        let response = try await send(
            Endpoint.completeEnrollment.method, Endpoint.completeEnrollment.path(started.enrollmentId), body: completion)
        let completed: EnrollmentCompleted
        if response.status == 202 {
            let pending = try decode(EnrollmentPending.self, response.body)
            await onApprovalPending?(pending)
            completed = try await awaitApproval(pending)
        } else {
            completed = try decode(EnrollmentCompleted.self, response.body)
        }
        try await keyStore.save(
            Registration(
                server: issuer, deviceId: completed.deviceId, userId: completed.session.userId, username: username,
                deviceKey: deviceKey, biometricKey: biometricKey))
        try await keyStore.setSession(StoredSession(session: completed.session, receivedAt: platform.now()), clientId: clientID)
        return completed.session
    }

    /// This device's registration with this server for `username`, if its keys are still here (a damaged one counts
    /// as none): the one a new registration replaces.
    private func registrationReplaced(by username: String) async -> Registration? {
        guard let registration = try? await keyStore.registration(), registration.server == issuer,
            registration.username == username
        else { return nil }
        return registration
    }

    /// How often a registration waiting for approval asks for the outcome.
    static let approvalPollInterval: Duration = .seconds(1)

    /// Waits until another device approves (the device id and session), denies, or the wait expires.
    private func awaitApproval(_ pending: EnrollmentPending) async throws -> EnrollmentCompleted {
        let path = Endpoint.pollEnrollment.path(pending.enrollmentId)
        while true {
            do {
                try await Task.sleep(for: Self.approvalPollInterval)
            } catch {
                throw TouchstoneError(.userCancelled, "stopped waiting for approval; nothing was kept")
            }
            let poll = try await call(
                "GET", path, headers: [TouchstoneHeader.pollSecret: pending.pollSecret], as: EnrollmentPoll.self)
            switch poll.status {
            case .pending: continue
            case .denied: throw TouchstoneError(.approvalDenied, "your other device denied this registration")
            case .expired: throw TouchstoneError(.approvalExpired, "nobody approved this registration in time")
            default:
                guard let deviceId = poll.deviceId, let session = poll.session else {
                    throw TouchstoneError(.transport, "the approval was already collected")
                }
                return EnrollmentCompleted(deviceId: deviceId, session: session)
            }
        }
    }
}
