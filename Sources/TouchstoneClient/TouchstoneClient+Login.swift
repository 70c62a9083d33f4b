import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// Asks the user for the app PIN, told why (the sensor locked out, the user chose "use PIN", or biometrics are
/// off); `nil` when the user cancels.
public typealias PINPrompt = @Sendable (_ reason: TouchstoneError) async throws -> String?

extension TouchstoneClient {
    /// Logs in with a biometric: the biometric key signs a fresh server challenge.
    ///
    /// When the sensor is locked out, unavailable or has nothing enrolled, the user chooses "use PIN", or
    /// biometrics are off for this device, `fallback` asks for the PIN once and the PIN login runs instead;
    /// nothing is retried silently.
    /// - Throws: ``TouchstoneError``: `notRegistered`, `userCancelled` (nothing changed), `biometryFailed`,
    ///   `bindingMismatch` (the keys were wiped: register again), `pinIncorrect`, `pinLocked`, `server`, …
    public func login(prompt: String, fallback: PINPrompt? = nil) async throws -> Session {
        try await checkIntegrity()
        let registration = try await requireRegistration()
        guard let biometricKey = registration.biometricKey else {
            return try await loginWithPIN(from: fallback, because: TouchstoneError(.optedOut, "biometrics are off on this device"))
        }
        do {
            try await platform.verifier.verify(prompt: prompt)
        } catch let error as TouchstoneError where Self.fallsBackToPIN.contains(error.code) {
            return try await loginWithPIN(from: fallback, because: error)
        }
        return try await assert(registration, key: biometricKey, pin: nil)
    }

    /// Logs in with the app PIN: the device key signs a fresh server challenge together with the PIN.
    /// - Throws: ``TouchstoneError`` `invalidPIN` (malformed: nothing sent, nothing counted), `pinIncorrect` with
    ///   the attempts remaining, `pinLocked`, `bindingMismatch`, …
    public func login(pin: String) async throws -> Session {
        try await checkIntegrity()
        let registration = try await requireRegistration()
        if let problem = try await policy().pinProblem(pin) { throw TouchstoneError(.invalidPIN, problem) }
        return try await assert(registration, key: registration.deviceKey, pin: pin)
    }

    /// Verifier outcomes after which the user is asked for the PIN instead.
    static let fallsBackToPIN: Set<TouchstoneError.Code> = [
        .userFallback, .biometryLockout, .biometryNotAvailable, .biometryNotEnrolled,
    ]

    private func loginWithPIN(from prompt: PINPrompt?, because reason: TouchstoneError) async throws -> Session {
        guard let prompt else { throw reason }
        guard let pin = try await prompt(reason) else { throw TouchstoneError(.userCancelled, "the user cancelled") }
        return try await login(pin: pin)
    }

    /// Answers a fresh login challenge with `key`, keeps the session, and wipes the keys on a binding mismatch.
    private func assert(_ registration: Registration, key: any DeviceKey, pin: String?) async throws -> Session {
        let challenge = try await call(
            Endpoint.challenge.method, Endpoint.challenge.path(), body: ChallengeRequest(deviceId: registration.deviceId), as: ChallengeIssued.self)
        let (_, dfp) = try await fingerprint()
        let times = tokenTimes()
        let assertion = try await key.sign(
            AssertionClaims(
                iss: registration.deviceId, aud: issuer, iat: times.iat, exp: times.exp, nonce: challenge.challenge,
                dfp: dfp, compromised: false, pin: pin))
        do {
            let session = try await call(
                Endpoint.login.method, Endpoint.login.path(), body: AssertionLoginRequest(clientId: clientID, assertion: assertion),
                as: Session.self)
            try await keyStore.setSession(StoredSession(session: session, receivedAt: platform.now()), clientId: clientID)
            return session
        } catch let error as TouchstoneError where error.code == .bindingMismatch {
            try await keyStore.wipe()
            throw error
        }
    }
}
