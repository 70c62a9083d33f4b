import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

extension TouchstoneClient {
    /// Registers this device: the password, then a device key, a biometric key (where a sensor is available and
    /// the policy allows it) and the PIN, each key proving possession.
    ///
    /// Nothing is kept on the device unless the server accepts the registration.
    /// - Parameters:
    ///   - pin: the app PIN the user picked; checked against the app's policy before anything is sent.
    ///   - prompt: shown when the biometric key is first used.
    /// - Returns: the first session.
    /// - Throws: ``TouchstoneError``: `deviceCompromised` (before anything is sent), `invalidPIN`,
    ///   `userCancelled`, `approvalPending` (another device must approve), `server` (`invalid_credentials`, …).
    /// - ⚠️ The password is sent to the server once and never kept.
    @discardableResult
    public func register(
        username: String, password: String, pin: String?, prompt: String = "Use your fingerprint to log in"
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
            "POST", "/v1/enrollments",
            body: PasswordLoginRequest(clientId: clientID, username: username, password: password),
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
        let times = Self.tokenTimes()
        let proof = ProofClaims(
            iss: started.enrollmentId, aud: issuer, iat: times.iat, exp: times.exp, nonce: started.challenge)
        let completion = EnrollmentCompletion(
            device: DeviceDescription(
                name: identity.name, model: identity.model, vendorId: identity.vendorId, os: identity.os,
                compromised: false),
            deviceKey: deviceKey.publicKey.jwk, biometricKey: biometricKey?.publicKey.jwk, pin: pin,
            deviceProof: try await deviceKey.sign(proof), biometricProof: try await biometricKey?.sign(proof))
        let response = try await send("POST", "/v1/enrollments/\(started.enrollmentId)/complete", body: completion)
        guard response.status == 201 else {
            throw TouchstoneError(.approvalPending, "approve this device on your other device")
        }
        let completed = try decode(EnrollmentCompleted.self, response.body)
        try await keyStore.save(
            Registration(
                server: issuer, deviceId: completed.deviceId, userId: completed.session.userId, username: username,
                deviceKey: deviceKey, biometricKey: biometricKey))
        try await keyStore.setSession(StoredSession(session: completed.session, receivedAt: Date()), clientId: clientID)
        return completed.session
    }
}
