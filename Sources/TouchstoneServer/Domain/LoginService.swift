import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// Biometric and PIN login: a fresh challenge signed by the device.
struct LoginService: Sendable {
    let environment: ServiceEnvironment

    static let purpose = "login"

    /// `POST /v1/challenges`.
    func challenge(_ request: ChallengeRequest, ip: String) async throws -> ChallengeIssued {
        guard request.purpose == Self.purpose else { throw ProblemError.invalidRequest("purpose must be \"login\"") }
        let device = try await environment.store.device(id: request.deviceId)
        return try await environment.auditor.recording(
            "challenge", userId: device?.userId, deviceId: request.deviceId, ip: ip, success: false
        ) {
            guard let device else { throw ProblemError.deviceNotFound }
            guard device.isActive else { throw ProblemError.deviceRevoked }
            let challenge = SecretDigest.randomToken()
            let expiresAt = environment.clock.now() + environment.settings.challengeLifetime
            try await environment.store.createChallenge(
                challenge, subject: device.id, purpose: Self.purpose, expiresAt: expiresAt)
            return ChallengeIssued(challenge: challenge, expiresAt: expiresAt)
        }
    }

    /// `POST /v1/sessions`: verifies the assertion, then applies binding, policy and PIN rules in that order.
    func login(_ request: AssertionLoginRequest, ip: String) async throws -> Session {
        let app = try await environment.app(request.clientId)
        let token = try? UnverifiedDeviceToken(request.assertion)
        var device: DeviceRecord?
        if let token {
            device = try await environment.store.device(id: token.issuer)
        }
        return try await environment.auditor.recording(
            "login", userId: device?.userId, deviceId: device?.id ?? token?.issuer, clientId: app.clientId, ip: ip
        ) {
            guard let token, let device else { throw ProblemError.invalidAssertion }
            return try await login(token, device: device, app: app)
        }
    }

    private func login(_ token: UnverifiedDeviceToken, device: DeviceRecord, app: AppRecord) async throws -> Session {
        guard let (jwk, usesBiometricKey) = device.registeredKey(kid: token.kid) else {
            throw ProblemError.invalidAssertion
        }
        let claims = try await DeviceTokenGate(environment: environment).accept(
            token, key: try await DevicePublicKey(jwk: jwk), as: AssertionClaims.self, issuer: device.id,
            invalid: .invalidAssertion, replayed: .challengeInvalid,
            // A PIN goes with the device key and only with it.
            check: { ($0.pin != nil) != usesBiometricKey })
        let now = environment.clock.now()
        guard
            try await environment.store.consumeChallenge(
                claims.nonce, subject: device.id, purpose: Self.purpose, now: now)
        else { throw ProblemError.challengeInvalid }
        guard device.isActive else { throw ProblemError.deviceRevoked }
        guard claims.dfp == device.fingerprint else {
            _ = try await environment.store.revokeDevice(id: device.id, reason: "binding mismatch", at: now)
            throw ProblemError(409, .bindingMismatch, "This device no longer matches its enrolment; register it again.")
        }
        if claims.compromised == true, app.policy.refuseCompromisedDevices { throw ProblemError.deviceCompromised }
        guard app.publisher == device.publisher else {
            throw ProblemError(403, .appNotInPublisher, "This device is enrolled with another publisher's app.")
        }
        if let pin = claims.pin {
            try await checkPIN(pin, device: device)
        } else if !app.policy.biometricAllowed {
            throw ProblemError(403, .biometryNotAllowed, "This app's policy does not allow biometric login.")
        }
        try await environment.store.touchDevice(id: device.id, at: now)
        return try await SessionService(environment: environment).issue(
            userId: device.userId, device: device, clientId: app.clientId, amr: [usesBiometricKey ? "bio" : "pin"],
            acr: "aal2")
    }

    /// Checks a PIN against the device's hash; a wrong one is counted atomically, a right one resets the count.
    func checkPIN(_ pin: String, device: DeviceRecord) async throws {
        guard device.pinLockedAt == nil else { throw ProblemError.pinLocked }
        guard let pinHash = device.pinHash else { throw ProblemError.invalidAssertion }
        if try await environment.hasher.verify(pin, against: pinHash) {
            guard try await environment.store.resetPINFailures(deviceId: device.id) else { throw ProblemError.pinLocked }
            return
        }
        let limit =
            try await environment.store.app(clientId: device.clientId)?.policy.maxPinAttempts
            ?? AppPolicy(clientId: device.clientId, publisher: device.publisher).maxPinAttempts
        guard
            let count = try await environment.store.countWrongPIN(
                deviceId: device.id, limit: limit, at: environment.clock.now()),
            !count.locked
        else { throw ProblemError.pinLocked }
        throw ProblemError(401, .pinIncorrect, "The PIN is wrong.", attemptsRemaining: max(0, limit - count.failures))
    }
}
