import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// An inbox item as a decision sees it.
struct DecisionTarget: Sendable {
    /// Whose policy a decision on the item follows.
    enum PolicyApp: Sendable {
        /// The app that asks (confirmations, web logins).
        case asking(clientId: String)
        /// The deciding device's own app: a new device of the same user (that device's own app decided at its
        /// enrolment).
        case decidingDevice
    }

    package let id: String
    package let challenge: String
    package let expiresAt: Date
    let isDecided: Bool
    /// Whether the item was sent to this device.
    let isRecipient: @Sendable (DeviceRecord) -> Bool
    /// The transaction hash a confirmation's decision must commit to.
    package let txn: String?
    /// Whose policy applies to the decision, as to a login.
    let policy: PolicyApp
}

/// Decisions on inbox items: a `touchstone-decision+jwt` from a device the item was sent to, signed by its
/// biometric key, or by its device key with the PIN (counted like a login's), judged by ``DeviceAssertionPipeline``.
struct DecisionService: Sendable {
    typealias Store = DeviceStore & AppStore

    let store: any Store
    let clock: any WallClock
    let hasher: PasswordHasher
    let pipeline: DeviceAssertionPipeline
    let gate: DeviceTokenGate

    /// A verified decision, before it is recorded.
    struct Decision: Sendable {
        package let claims: DecisionClaims
        /// The SHA-256 of the device's decision token: all that is kept of it (it may carry a PIN).
        package let digest: String
        /// How the user was verified.
        package let amr: [AuthenticationMethod]
        /// What recording it writes besides the item (the PIN, the deciding device's state).
        package let commit: DecisionCommit
        package var approves: Bool { claims.decision == "approve" }
    }

    /// Verifies `assertion` as a decision on `target`, in the protocol's order; the PIN is checked last and applied
    /// when the decision is recorded (``settle(_:)``).
    /// - Throws: 401 `invalid_assertion` / `challenge_invalid` (also for a device the item was not sent to),
    ///   403 `device_revoked`, 409 `already_decided`, 410 `expired`, 403 `biometry_not_allowed` /
    ///   `device_compromised` / `attestation_required` (the policy), 400 `txn_mismatch`.
    package func verify(_ assertion: String, for target: DecisionTarget) async throws -> Decision {
        let token = try DeviceTokenGate.parse(assertion, invalid: .invalidAssertion)
        guard let device = try await store.device(id: token.issuer) else { throw ProblemError.invalidAssertion }
        // A decision with the PIN is admitted by the hashing gate before its token is spent.
        return try await hasher.admitting(if: device.registeredKey(kid: token.kid)?.isBiometric == false) {
            try await verify(token, device: device, for: target)
        }
    }

    private func verify(_ token: UnverifiedDeviceToken, device: DeviceRecord, for target: DecisionTarget) async throws
        -> Decision
    {
        let verified = try pipeline.verify(token, device: device, as: DecisionClaims.self)
        try await gate.spend(verified.token, replayed: .challengeInvalid)
        let claims = verified.claims
        guard device.isActive else { throw ProblemError.deviceRevoked }
        guard target.isRecipient(device), SecretDigest.constantTimeEquals(claims.nonce, target.challenge) else {
            throw ProblemError.challengeInvalid
        }
        guard !target.isDecided else { throw Self.alreadyDecided }
        let now = clock.now()
        guard target.expiresAt > now else { throw ProblemError(.expired) }
        let app: AppRecord
        switch target.policy {
        case .asking(let clientId): app = try await store.existingApp(clientId)
        case .decidingDevice: app = try await store.existingApp(device.clientId)
        }
        if let refusal = pipeline.policyRefusal(verified, app: app) { throw refusal }
        if let txn = target.txn, claims.txn != txn { throw ProblemError(.txnMismatch) }
        let pin = try await pipeline.checkPIN(verified)
        return Decision(
            claims: claims, digest: verified.token.digest, amr: verified.amr,
            commit: DecisionCommit(signer: verified.signer(pin: pin), now: now))
    }

    /// Turns what recording a decision did into its refusal, if any.
    func settle(_ outcome: DecisionCommit.Outcome) throws {
        switch outcome {
        case .recorded: return
        case .notPending: throw Self.alreadyDecided
        case .refused(let refused): throw pipeline.refusal(refused)
        }
    }

    package static let alreadyDecided = ProblemError(.alreadyDecided)

    /// Confirmations and web logins reach the user's active devices of the item's publisher.
    package static func reaches(userId: String?, publisher: String) -> @Sendable (DeviceRecord) -> Bool {
        { device in device.isActive && device.userId == userId && device.publisher == publisher }
    }
}
