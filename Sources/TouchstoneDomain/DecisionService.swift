import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// An inbox item as a decision sees it.
struct DecisionTarget: Sendable {
    package let id: String
    package let challenge: String
    package let expiresAt: Date
    let isDecided: Bool
    /// Whether the item was sent to this device.
    let isRecipient: @Sendable (DeviceRecord) -> Bool
    /// The transaction hash a confirmation's decision must commit to.
    package let txn: String?
    /// The app that asks: its policy applies to the decision as to a login.
    package let clientId: String
}

/// Decisions on inbox items: a `touchstone-decision+jwt` from a device the item was sent to, signed by its
/// biometric key, or by its device key with the PIN (counted like a login's).
struct DecisionService: Sendable {
    package let environment: ServiceEnvironment

    /// A verified decision, before it is recorded.
    struct Decision: Sendable {
        package let device: DeviceRecord
        package let claims: DecisionClaims
        /// The SHA-256 of the device's decision token: all that is kept of it (it may carry a PIN).
        package let digest: String
        /// What recording it writes besides the item (the PIN, the deciding device's state).
        package let commit: DecisionCommit
        package var approves: Bool { claims.decision == "approve" }
        package var amr: [String] { [claims.pin == nil ? "bio" : "pin"] }
    }

    /// Verifies `assertion` as a decision on `target`, in the protocol's order; the PIN is checked last and applied
    /// when the decision is recorded (``settle(_:)``).
    /// - Throws: 401 `invalid_assertion` / `challenge_invalid` (also for a device the item was not sent to),
    ///   403 `device_revoked`, 409 `already_decided`, 410 `expired`, 403 `biometry_not_allowed` /
    ///   `device_compromised` (the asking app's policy), 400 `txn_mismatch`.
    package func verify(_ assertion: String, for target: DecisionTarget) async throws -> Decision {
        let token = try DeviceTokenGate.parse(assertion, invalid: .invalidAssertion)
        guard let device = try await environment.store.device(id: token.issuer),
            let (jwk, usesBiometricKey) = device.registeredKey(kid: token.kid)
        else { throw ProblemError.invalidAssertion }
        let gate = DeviceTokenGate(environment: environment)
        let verified = try gate.verify(
            token, key: try environment.deviceKeys.key(for: jwk), as: DecisionClaims.self, issuer: device.id,
            invalid: .invalidAssertion)
        guard verified.claims.verify(signedWithBiometricKey: usesBiometricKey) else { throw ProblemError.invalidAssertion }
        try await gate.spend(verified, replayed: .challengeInvalid)
        let claims = verified.claims
        guard device.isActive else { throw ProblemError.deviceRevoked }
        guard target.isRecipient(device),
            SecretDigest.constantTimeEquals(claims.nonce, target.challenge)
        else { throw ProblemError.challengeInvalid }
        guard !target.isDecided else { throw Self.alreadyDecided }
        let now = environment.clock.now()
        guard target.expiresAt > now else {
            throw ProblemError(.expired)
        }
        let policy = try await environment.app(target.clientId).policy
        if claims.pin == nil, !policy.biometricAllowed {
            throw ProblemError(.biometryNotAllowed, detail: "The asking app's policy does not allow biometric approval.")
        }
        if device.compromised, policy.refuseCompromisedDevices { throw ProblemError.deviceCompromised }
        if let txn = target.txn, claims.txn != txn {
            throw ProblemError(.txnMismatch)
        }
        var pin: PINAttempt?
        if let entered = claims.pin {
            pin = try await PINCheck(environment: environment).check(entered, device: device)
        }
        return Decision(
            device: device, claims: claims, digest: token.digest,
            commit: DecisionCommit(
                deviceId: device.id, signedWithBiometricKey: usesBiometricKey, keyThumbprint: token.kid, pin: pin,
                now: now))
    }

    /// Turns what recording a decision did into its refusal, if any.
    func settle(_ outcome: DecisionCommit.Outcome) throws {
        switch outcome {
        case .recorded: return
        case .notPending: throw Self.alreadyDecided
        case .deviceRevoked: throw ProblemError.deviceRevoked
        case .keyRemoved: throw ProblemError.invalidAssertion
        case .pin(let pin): throw PINCheck(environment: environment).refusal(pin)
        }
    }

    package static let alreadyDecided = ProblemError(.alreadyDecided)

    /// Confirmations and web logins reach the user's active devices of the item's publisher.
    package static func reaches(userId: String?, publisher: String) -> @Sendable (DeviceRecord) -> Bool {
        { device in device.isActive && device.userId == userId && device.publisher == publisher }
    }
}
