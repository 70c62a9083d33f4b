import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// Biometric and PIN login: a fresh challenge signed by the device.
package struct LoginService: Sendable {
    typealias Store = DeviceStore & ChallengeStore & LoginStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    /// How long a login challenge lives.
    let challengeLifetime: TimeInterval
    let hasher: PasswordHasher
    let metrics: ServerMetrics
    let auditor: Auditor
    let pipeline: DeviceAssertionPipeline
    let sessionIssuer: SessionIssuer

    package static let purpose = "login"

    /// `POST /v1/challenges`.
    package func challenge(_ request: ChallengeRequest, ip: String) async throws -> ChallengeIssued {
        guard request.purpose == Self.purpose else { throw ProblemError.invalidRequest("purpose must be \"login\"") }
        let device = try await store.device(id: request.deviceId)
        return try await auditor.recording(
            .challenge, userId: device?.userId, deviceId: request.deviceId, ip: ip, success: false
        ) {
            guard let device else { throw ProblemError.deviceNotFound }
            guard device.isActive else { throw ProblemError.deviceRevoked }
            let challenge = random.token()
            let expiresAt = clock.now() + challengeLifetime
            try await store.createChallenge(
                challenge, subject: device.id, purpose: Self.purpose, expiresAt: expiresAt)
            return ChallengeIssued(challenge: challenge, expiresAt: expiresAt)
        }
    }

    /// `POST /v1/sessions`: verifies the assertion, then applies binding, policy and PIN rules in that order.
    package func login(_ request: AssertionLoginRequest, ip: String) async throws -> Session {
        let token = try? UnverifiedDeviceToken(request.assertion)
        // One read; with the login's one write (``LoginCommit``), a login is two statements on PostgreSQL.
        let (app, device) = try await store.loginParties(clientId: request.clientId, deviceId: token?.issuer)
        guard let app else { throw ProblemError.appNotFound }
        // Counted as a PIN login when the key that claims to have signed is the device's PIN key.
        let method: ServerMetrics.LoginMethod =
            token.flatMap { device?.registeredKey(kid: $0.kid) }.map { $0.isBiometric ? .bio : .pin } ?? .bio
        // A PIN login is admitted by the hashing gate before anything is consumed, counted or audited.
        return try await hasher.admitting(if: method == .pin) {
            try await metrics.countingLogin(method) {
                // Refusals are audited here; an accepted login is audited in the transaction that stores its session.
                try await auditor.recording(
                    .login, userId: device?.userId, deviceId: device?.id ?? token?.issuer, clientId: app.clientId,
                    ip: ip, success: false
                ) {
                    guard let token, let device else { throw ProblemError.invalidAssertion }
                    return try await login(token, device: device, app: app, ip: ip)
                }
            }
        }
    }

    private func login(_ token: UnverifiedDeviceToken, device: DeviceRecord, app: AppRecord, ip: String) async throws
        -> Session
    {
        // Spent by consuming its challenge in the login transaction below (``LoginCommit``).
        let assertion = try pipeline.verify(token, device: device, as: AssertionClaims.self)
        let claims = assertion.claims
        let now = clock.now()
        // Every rule after the challenge is decided from the verified claims and the device read above (the PIN is
        // checked against the hash read then), so that the writes of the login (challenge, PIN count, and revocation
        // or session) go to the store in one transaction, which applies them only if the device is still as read.
        let refusal = refusal(assertion, app: app)
        var effect = LoginCommit.Effect.none
        var session: PreparedSession?
        if refusal?.code == .bindingMismatch {
            effect = .revokeDevice(
                reason: "binding mismatch",
                notices: [
                    SecurityNotices.draft(
                        .deviceRemoved, userId: device.userId, device: device, actingDevice: device.id, ip: ip, at: now)
                ])
        } else if refusal == nil {
            if claims.pin != nil {
                // Not worth a bcrypt when the challenge is already spent (a replayed assertion).
                guard try await store.challengeIsLive(claims.nonce, subject: device.id, purpose: Self.purpose, now: now)
                else { throw ProblemError.challengeInvalid }
            }
            let pin = try await pipeline.checkPIN(assertion)
            let prepared = sessionIssuer.prepare(
                userId: device.userId, device: device, clientId: app.clientId, amr: assertion.amr, acr: .aal2, ip: ip)
            session = prepared
            effect = .issue(
                session: prepared.record, refreshTokenHash: prepared.refreshTokenHash, signer: assertion.signer(pin: pin),
                audit: auditor.event(
                    .login, outcome: .ok, userId: device.userId, deviceId: device.id, clientId: app.clientId, ip: ip))
        }
        let outcome = try await store.commitLogin(
            LoginCommit(
                challenge: claims.nonce, deviceId: device.id, purpose: Self.purpose, now: now,
                reportedCompromised: claims.reportsCompromised, effect: effect))
        switch outcome {
        case .challengeInvalid: throw ProblemError.challengeInvalid
        case .refused(let refused): throw pipeline.refusal(refused)
        case .committed: break
        }
        if let refusal { throw refusal }
        guard let session else { throw ProblemError.invalidAssertion }
        // Signed only now that the login is decided: a refused one costs no signature.
        return try await sessionIssuer.issue(session)
    }

    /// The refusal a verified assertion meets once its challenge is consumed, in the protocol's order — the device
    /// revoked, its binding, the app's publisher, then the app's policy as for every assertion
    /// (``DeviceAssertionPipeline/policyRefusal(_:app:)``); `nil` when the login may go on (for a PIN assertion: to the
    /// PIN check).
    private func refusal(
        _ assertion: DeviceAssertionPipeline.Verified<AssertionClaims>, app: AppRecord
    ) -> ProblemError? {
        let device = assertion.device
        guard device.isActive else { return .deviceRevoked }
        guard assertion.claims.dfp == device.fingerprint else { return ProblemError(.bindingMismatch) }
        guard app.publisher == device.publisher else { return ProblemError(.appNotInPublisher) }
        return pipeline.policyRefusal(assertion, app: app)
    }

}
