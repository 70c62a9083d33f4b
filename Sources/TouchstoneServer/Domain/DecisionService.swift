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
}

/// Decisions on inbox items: a `touchstone-decision+jwt` from a device the item was sent to, signed by its
/// biometric key, or by its device key with the PIN (counted like a login's).
struct DecisionService: Sendable {
    let environment: ServiceEnvironment

    /// A verified decision, before it is recorded.
    struct Decision: Sendable {
        let device: DeviceRecord
        let claims: DecisionClaims
        let token: String
        var approves: Bool { claims.decision == "approve" }
        var amr: [String] { [claims.pin == nil ? "bio" : "pin"] }
    }

    /// Verifies `assertion` as a decision on `target`, in the protocol's order, and checks the PIN last.
    /// - Throws: 401 `invalid_assertion` / `challenge_invalid` (also for a device the item was not sent to),
    ///   409 `already_decided`, 410 `expired`, 400 `txn_mismatch`, 401 `pin_incorrect`, 423 `pin_locked`.
    func verify(_ assertion: String, for target: DecisionTarget) async throws -> Decision {
        let token = try DeviceTokenGate.parse(assertion, invalid: .invalidAssertion)
        guard let device = try await environment.store.device(id: token.issuer), device.isActive else {
            throw ProblemError.invalidAssertion
        }
        guard let (jwk, usesBiometricKey) = device.registeredKey(kid: token.kid) else {
            throw ProblemError.invalidAssertion
        }
        let claims = try await DeviceTokenGate(environment: environment).accept(
            token, key: try environment.deviceKeys.key(for: jwk), as: DecisionClaims.self, issuer: device.id,
            invalid: .invalidAssertion, replayed: .challengeInvalid,
            check: { ($0.pin != nil) != usesBiometricKey && ["approve", "deny"].contains($0.decision) })
        guard target.isRecipient(device),
            SecretDigest.constantTimeEquals(claims.nonce, target.challenge)
        else { throw ProblemError.challengeInvalid }
        guard !target.isDecided else { throw Self.alreadyDecided }
        guard target.expiresAt > environment.clock.now() else {
            throw ProblemError(410, .expired, "This request has expired.")
        }
        if let txn = target.txn, claims.txn != txn {
            throw ProblemError(400, .txnMismatch, "The decision does not commit to this transaction.")
        }
        if let pin = claims.pin {
            try await LoginService(environment: environment).checkPIN(pin, device: device)
        }
        return Decision(device: device, claims: claims, token: token.compact)
    }

    static let alreadyDecided = ProblemError(409, .alreadyDecided, "This request was already decided.")

    /// Confirmations and web logins reach the user's active devices of the item's publisher.
    static func reaches(userId: String?, publisher: String) -> @Sendable (DeviceRecord) -> Bool {
        { device in device.isActive && device.userId == userId && device.publisher == publisher }
    }
}
