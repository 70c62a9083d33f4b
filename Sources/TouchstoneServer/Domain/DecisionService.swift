import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// An inbox item as a decision sees it.
struct DecisionTarget: Sendable {
    let id: String
    let challenge: String
    let expiresAt: Date
    let isDecided: Bool
    /// Whether the item was sent to this device.
    let isRecipient: @Sendable (DeviceRecord) -> Bool
    /// The transaction hash a confirmation's decision must commit to.
    let txn: String?
    /// The app that asks: its policy applies to the decision as to a login.
    let clientId: String
}

/// Decisions on inbox items: a `touchstone-decision+jwt` from a device the item was sent to, signed by its
/// biometric key, or by its device key with the PIN (counted like a login's).
struct DecisionService: Sendable {
    let environment: ServiceEnvironment

    /// A verified decision, before it is recorded.
    struct Decision: Sendable {
        let device: DeviceRecord
        let claims: DecisionClaims
        /// The SHA-256 of the device's decision token: all that is kept of it (it may carry a PIN).
        let digest: String
        /// What recording it writes besides the item (the PIN, the deciding device's state).
        let commit: DecisionCommit
        var approves: Bool { claims.decision == "approve" }
        var amr: [String] { [claims.pin == nil ? "bio" : "pin"] }
    }

    /// Verifies `assertion` as a decision on `target`, in the protocol's order; the PIN is checked last and applied
    /// when the decision is recorded (``settle(_:)``).
    /// - Throws: 401 `invalid_assertion` / `challenge_invalid` (also for a device the item was not sent to),
    ///   403 `device_revoked`, 409 `already_decided`, 410 `expired`, 403 `biometry_not_allowed` /
    ///   `device_compromised` (the asking app's policy), 400 `txn_mismatch`.
    func verify(_ assertion: String, for target: DecisionTarget) async throws -> Decision {
        let token = try DeviceTokenGate.parse(assertion, invalid: .invalidAssertion)
        guard let device = try await environment.store.device(id: token.issuer),
            let (jwk, usesBiometricKey) = device.registeredKey(kid: token.kid)
        else { throw ProblemError.invalidAssertion }
        let claims = try await DeviceTokenGate(environment: environment).accept(
            token, key: try environment.deviceKeys.key(for: jwk), as: DecisionClaims.self, issuer: device.id,
            invalid: .invalidAssertion, replayed: .challengeInvalid,
            check: { ($0.pin != nil) != usesBiometricKey && ["approve", "deny"].contains($0.decision) })
        guard device.isActive else { throw ProblemError.deviceRevoked }
        guard target.isRecipient(device),
            SecretDigest.constantTimeEquals(claims.nonce, target.challenge)
        else { throw ProblemError.challengeInvalid }
        guard !target.isDecided else { throw Self.alreadyDecided }
        let now = environment.clock.now()
        guard target.expiresAt > now else {
            throw ProblemError(410, .expired, "This request has expired.")
        }
        let policy = try await environment.app(target.clientId).policy
        if claims.pin == nil, !policy.biometricAllowed {
            throw ProblemError(403, .biometryNotAllowed, "The asking app's policy does not allow biometric approval.")
        }
        if device.compromised, policy.refuseCompromisedDevices { throw ProblemError.deviceCompromised }
        if let txn = target.txn, claims.txn != txn {
            throw ProblemError(400, .txnMismatch, "The decision does not commit to this transaction.")
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
    static func settle(_ outcome: DecisionCommit.Outcome) throws {
        switch outcome {
        case .recorded: return
        case .notPending: throw alreadyDecided
        case .deviceRevoked: throw ProblemError.deviceRevoked
        case .keyRemoved: throw ProblemError.invalidAssertion
        case .pin(let pin): throw PINCheck.refusal(pin)
        }
    }

    static let alreadyDecided = ProblemError(409, .alreadyDecided, "This request was already decided.")

    /// Confirmations and web logins reach the user's active devices of the item's publisher.
    static func reaches(userId: String?, publisher: String) -> @Sendable (DeviceRecord) -> Bool {
        { device in device.isActive && device.userId == userId && device.publisher == publisher }
    }
}
