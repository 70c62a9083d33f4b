import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// Biometric and PIN login: a fresh challenge signed by the device.
struct LoginService: Sendable {
    let environment: ServiceEnvironment

    static let purpose = "login"

    /// `POST /v1/challenges`.
    func challenge(_ request: ChallengeRequest) async throws -> ChallengeIssued {
        guard request.purpose == Self.purpose else { throw ProblemError.invalidRequest("purpose must be \"login\"") }
        guard let device = try await environment.store.device(id: request.deviceId) else {
            throw ProblemError.deviceNotFound
        }
        guard device.isActive else { throw ProblemError.deviceRevoked }
        let challenge = SecretDigest.randomToken()
        let expiresAt = environment.clock.now() + environment.settings.challengeLifetime
        try await environment.store.createChallenge(
            challenge, subject: device.id, purpose: Self.purpose, expiresAt: expiresAt)
        return ChallengeIssued(challenge: challenge, expiresAt: expiresAt)
    }

    /// `POST /v1/sessions`: verifies the assertion, then applies binding, policy and PIN rules in that order.
    func login(_ request: AssertionLoginRequest, ip: String) async throws -> Session {
        let app = try await environment.app(request.clientId)
        let token = try DeviceTokenGate.parse(request.assertion, invalid: .invalidAssertion)
        guard let device = try await environment.store.device(id: token.issuer) else { throw ProblemError.invalidAssertion }
        let audit: @Sendable (String) async -> Void = { outcome in
            await environment.auditor.record(
                "login", outcome: outcome, userId: device.userId, deviceId: device.id, clientId: app.clientId, ip: ip)
        }
        let usesBiometricKey: Bool
        let jwk: PublicJWK
        if let biometricKey = device.biometricKey, token.kid == device.biometricKeyThumbprint {
            (usesBiometricKey, jwk) = (true, biometricKey)
        } else if token.kid == device.deviceKeyThumbprint {
            (usesBiometricKey, jwk) = (false, device.deviceKey)
        } else {
            await audit("invalid_assertion")
            throw ProblemError.invalidAssertion
        }
        let key = try await DevicePublicKey(jwk: jwk)
        let claims: AssertionClaims
        do {
            claims = try await DeviceTokenGate(environment: environment).accept(
                token, key: key, as: AssertionClaims.self, issuer: device.id, invalid: .invalidAssertion,
                replayed: .challengeInvalid,
                // A PIN goes with the device key and only with it.
                check: { ($0.pin != nil) != usesBiometricKey })
        } catch let error as ProblemError {
            await audit(error.code.rawValue)
            throw error
        }
        let now = environment.clock.now()
        guard
            try await environment.store.consumeChallenge(
                claims.nonce, subject: device.id, purpose: Self.purpose, now: now)
        else {
            await audit("challenge_invalid")
            throw ProblemError.challengeInvalid
        }
        guard device.isActive else {
            await audit("device_revoked")
            throw ProblemError.deviceRevoked
        }
        guard claims.dfp == device.fingerprint else {
            _ = try await environment.store.revokeDevice(id: device.id, reason: "binding mismatch", at: now)
            await audit("binding_mismatch")
            throw ProblemError(
                409, .bindingMismatch, "This device no longer matches its enrolment; register it again.")
        }
        if claims.compromised == true, app.policy.refuseCompromisedDevices {
            await audit("device_compromised")
            throw ProblemError.deviceCompromised
        }
        guard app.publisher == device.publisher else {
            await audit("app_not_in_publisher")
            throw ProblemError(403, .appNotInPublisher, "This device is enrolled with another publisher's app.")
        }
        let amr: String
        if usesBiometricKey {
            guard app.policy.biometricAllowed else {
                await audit("biometry_not_allowed")
                throw ProblemError(403, .biometryNotAllowed, "This app's policy does not allow biometric login.")
            }
            amr = "bio"
        } else {
            try await checkPIN(claims.pin ?? "", device: device, audit: audit)
            amr = "pin"
        }
        try await environment.store.touchDevice(id: device.id, at: now)
        let session = try await SessionService(environment: environment).issue(
            userId: device.userId, device: device, clientId: app.clientId, amr: [amr], acr: "aal2")
        await audit("ok")
        return session
    }

    /// Checks a PIN against the device's hash; a wrong one is counted atomically, a right one resets the count.
    func checkPIN(_ pin: String, device: DeviceRecord, audit: @Sendable (String) async -> Void) async throws {
        guard device.pinLockedAt == nil else {
            await audit("pin_locked")
            throw ProblemError.pinLocked
        }
        guard let pinHash = device.pinHash else {
            await audit("invalid_assertion")
            throw ProblemError.invalidAssertion
        }
        if try await environment.hasher.verify(pin, against: pinHash) {
            guard try await environment.store.resetPINFailures(deviceId: device.id) else {
                await audit("pin_locked")
                throw ProblemError.pinLocked
            }
            return
        }
        let limit = try await environment.store.app(clientId: device.clientId)?.policy.maxPinAttempts
            ?? AppPolicy(clientId: device.clientId, publisher: device.publisher).maxPinAttempts
        guard let count = try await environment.store.countWrongPIN(deviceId: device.id, limit: limit, at: environment.clock.now()),
            !count.locked
        else {
            await audit("pin_locked")
            throw ProblemError.pinLocked
        }
        await audit("pin_incorrect")
        throw ProblemError(
            401, .pinIncorrect, "The PIN is wrong.", attemptsRemaining: max(0, limit - count.failures))
    }
}
