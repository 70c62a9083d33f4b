import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// Binds user + device + keys: password first, then proofs of possession of each new key.
struct EnrollmentService: Sendable {
    let environment: ServiceEnvironment

    /// The answer to a completed enrolment.
    enum Outcome: Sendable {
        case completed(EnrollmentCompleted)
        case pending(EnrollmentPending)
    }

    /// `POST /v1/enrollments`: checks the password and issues the enrolment challenge.
    func start(_ request: PasswordLoginRequest, ip: String) async throws -> EnrollmentStarted {
        let app = try await environment.app(request.clientId)
        let user = try await AccountService(environment: environment).verifyPassword(
            username: request.username, password: request.password, clientId: app.clientId, ip: ip,
            event: "enrollment.start")
        let now = environment.clock.now()
        let enrollment = EnrollmentRecord(
            id: ServiceEnvironment.newID(), userId: user.id, clientId: app.clientId,
            challenge: SecretDigest.randomToken(), challengeExpiresAt: now + environment.settings.challengeLifetime,
            state: .started, createdAt: now)
        try await environment.store.createEnrollment(enrollment)
        await environment.auditor.record("enrollment.start", outcome: "ok", userId: user.id, clientId: app.clientId, ip: ip)
        return EnrollmentStarted(
            enrollmentId: enrollment.id, challenge: enrollment.challenge, expiresAt: enrollment.challengeExpiresAt)
    }

    /// `POST /v1/enrollments/{id}/complete`.
    func complete(id: String, _ request: EnrollmentCompletion, ip: String) async throws -> Outcome {
        let now = environment.clock.now()
        guard let enrollment = try await environment.store.enrollment(id: id), enrollment.state == .started,
            enrollment.challengeExpiresAt > now
        else { throw ProblemError.challengeInvalid }
        let app = try await environment.app(enrollment.clientId)
        return try await environment.auditor.recording(
            "enrollment.complete", userId: enrollment.userId, clientId: app.clientId, ip: ip, success: false
        ) {
            try await complete(enrollment, app: app, request, ip: ip, now: now)
        }
    }

    private func complete(
        _ enrollment: EnrollmentRecord, app: AppRecord, _ request: EnrollmentCompletion, ip: String, now: Date
    ) async throws -> Outcome {
        let id = enrollment.id
        let policy = app.policy
        try Self.checkDescription(request.device)
        let deviceKey = try await Self.key(request.deviceKey)
        var biometricKey: DevicePublicKey?
        if let jwk = request.biometricKey {
            biometricKey = try await Self.key(jwk)
        }
        if let biometricKey, biometricKey.thumbprint == deviceKey.thumbprint {
            throw ProblemError.invalidKey("the biometric key and the device key must differ")
        }
        if biometricKey != nil, !policy.biometricAllowed {
            throw ProblemError(403, .biometryNotAllowed, "This app's policy does not allow biometric keys.")
        }
        if let pin = request.pin {
            if let problem = policy.pinProblem(pin) { throw ProblemError.invalidPIN(problem) }
        } else if policy.pinRequired || biometricKey == nil {
            throw ProblemError(400, .pinRequired, "A PIN is required.")
        }

        let proofs = [(deviceKey, Optional(request.deviceProof))] + (biometricKey.map { [($0, request.biometricProof)] } ?? [])
        var accepted: [UnverifiedDeviceToken] = []
        for (key, proof) in proofs {
            guard let proof else { throw ProblemError.invalidProof }
            let token = try DeviceTokenGate.parse(proof, invalid: .invalidProof)
            let claims: ProofClaims
            do {
                claims = try key.verify(
                    token, as: ProofClaims.self, issuer: enrollment.id, rules: environment.tokenRules, now: now)
            } catch {
                environment.logger.info("enrolment proof refused", metadata: ["reason": .string("\(error)")])
                throw ProblemError.invalidProof
            }
            guard SecretDigest.constantTimeEquals(claims.nonce, enrollment.challenge) else {
                throw ProblemError.invalidProof
            }
            accepted.append(token)
        }
        if request.device.compromised, policy.refuseCompromisedDevices { throw ProblemError.deviceCompromised }
        for token in accepted {
            guard try await environment.store.recordUsedToken(digest: token.digest, expiresAt: now + 120) else {
                throw ProblemError.challengeInvalid
            }
        }
        guard try await environment.store.consumeEnrollmentChallenge(id: id, now: now) else {
            throw ProblemError.challengeInvalid
        }

        let fingerprint = DeviceFingerprint.of(request.device)
        var pinHash: String?
        if let pin = request.pin {
            pinHash = try await environment.hasher.hash(pin)
        }
        let others = try await environment.store.devices(userId: enrollment.userId)
            .filter { $0.isActive && $0.fingerprint != fingerprint }
        if policy.newDeviceApproval, !others.isEmpty {
            let pollSecret = SecretDigest.randomToken()
            let expiresAt = now + environment.settings.pendingEnrollmentLifetime
            let pending = PendingDevice(
                device: request.device, fingerprint: fingerprint, deviceKey: deviceKey.jwk,
                deviceKeyThumbprint: deviceKey.thumbprint, biometricKey: biometricKey?.jwk,
                biometricKeyThumbprint: biometricKey?.thumbprint, pinHash: pinHash, ip: ip)
            try await environment.store.parkEnrollment(
                id: id, device: pending, pollSecretHash: SecretDigest.sha256(pollSecret),
                approvalChallenge: SecretDigest.randomToken(), expiresAt: expiresAt)
            await environment.auditor.record(
                "enrollment.complete", outcome: "approval_pending", userId: enrollment.userId, clientId: app.clientId,
                ip: ip)
            return .pending(EnrollmentPending(enrollmentId: id, pollSecret: pollSecret, expiresAt: expiresAt))
        }

        let device = DeviceRecord(
            id: ServiceEnvironment.newID(), userId: enrollment.userId, clientId: app.clientId, publisher: app.publisher,
            name: request.device.name, model: request.device.model, vendorId: request.device.vendorId,
            os: request.device.os, fingerprint: fingerprint, deviceKey: deviceKey.jwk,
            deviceKeyThumbprint: deviceKey.thumbprint, biometricKey: biometricKey?.jwk,
            biometricKeyThumbprint: biometricKey?.thumbprint, pinHash: pinHash, pinFailures: 0, pinLockedAt: nil,
            createdAt: now, lastUsedAt: now, revokedAt: nil)
        let session = try await SessionService(environment: environment).prepare(
            userId: enrollment.userId, device: device, clientId: app.clientId,
            amr: biometricKey == nil ? ["pin"] : ["bio"], acr: "aal2")
        try await environment.store.completeEnrollment(
            id: id, device: device, session: session.record, refreshTokenHash: session.refreshTokenHash)
        await environment.auditor.record(
            "enrollment.complete", outcome: "ok", userId: enrollment.userId, deviceId: device.id,
            clientId: app.clientId, ip: ip)
        return .completed(EnrollmentCompleted(deviceId: device.id, session: session.wire))
    }

    /// `GET /v1/enrollments/{id}` with the poll secret; an approved enrolment's device id and session come once.
    func poll(id: String, pollSecret: String?) async throws -> EnrollmentPoll {
        let notFound = ProblemError(404, .notFound, "No such enrolment.")
        guard let pollSecret, let enrollment = try await environment.store.enrollment(id: id),
            let expected = enrollment.pollSecretHash,
            SecretDigest.constantTimeEquals(SecretDigest.sha256(pollSecret), expected)
        else { throw notFound }
        switch enrollment.state {
        case .pending:
            let expired = enrollment.pendingExpiresAt.map { $0 <= environment.clock.now() } ?? true
            return EnrollmentPoll(status: expired ? .expired : .pending)
        case .denied:
            return EnrollmentPoll(status: .denied)
        case .approved, .completed:
            guard let deviceId = enrollment.deviceId, try await environment.store.claimEnrollmentDelivery(id: id),
                let device = try await environment.store.device(id: deviceId), device.isActive
            else { return EnrollmentPoll(status: .approved, deviceId: enrollment.deviceId) }
            let session = try await SessionService(environment: environment).issue(
                userId: device.userId, device: device, clientId: enrollment.clientId,
                amr: device.biometricKey == nil ? ["pin"] : ["bio"], acr: "aal2")
            return EnrollmentPoll(status: .approved, deviceId: deviceId, session: session)
        case .started, .consumed:
            throw notFound
        }
    }

    /// `POST /v1/enrollments/{id}/decision`: another active device of the user approves or denies a new device.
    func decide(_ id: String, assertion: String, ip: String) async throws -> DecisionRecorded {
        guard let enrollment = try await environment.store.enrollment(id: id), enrollment.state != .started,
            enrollment.state != .consumed, let pending = enrollment.pendingDevice,
            let challenge = enrollment.approvalChallenge, let expiresAt = enrollment.pendingExpiresAt
        else { throw ProblemError(404, .notFound, "No such enrolment.") }
        return try await environment.auditor.recording(
            "enrollment.decide", userId: enrollment.userId, clientId: enrollment.clientId, ip: ip
        ) {
            let target = DecisionTarget(
                id: id, challenge: challenge, expiresAt: expiresAt, isDecided: enrollment.state != .pending,
                isRecipient: { device in
                    device.isActive && device.userId == enrollment.userId && device.fingerprint != pending.fingerprint
                },
                txn: nil)
            let decision = try await DecisionService(environment: environment).verify(assertion, for: target)
            let now = environment.clock.now()
            var device: DeviceRecord?
            if decision.approves {
                let app = try await environment.app(enrollment.clientId)
                device = DeviceRecord(
                    id: ServiceEnvironment.newID(), userId: enrollment.userId, clientId: app.clientId,
                    publisher: app.publisher, name: pending.device.name, model: pending.device.model,
                    vendorId: pending.device.vendorId, os: pending.device.os, fingerprint: pending.fingerprint,
                    deviceKey: pending.deviceKey, deviceKeyThumbprint: pending.deviceKeyThumbprint,
                    biometricKey: pending.biometricKey, biometricKeyThumbprint: pending.biometricKeyThumbprint,
                    pinHash: pending.pinHash, pinFailures: 0, pinLockedAt: nil, createdAt: now, lastUsedAt: now,
                    revokedAt: nil)
            }
            guard
                try await environment.store.decideEnrollment(
                    id: id, approvedDevice: device, decidedBy: decision.device.id, now: now)
            else { throw DecisionService.alreadyDecided }
            return DecisionRecorded(status: decision.approves ? .approved : .denied)
        }
    }

    private static func key(_ jwk: PublicJWK) async throws -> DevicePublicKey {
        do {
            return try DevicePublicKey(jwk: jwk)
        } catch {
            throw ProblemError.invalidKey("\(error)")
        }
    }

    private static func checkDescription(_ device: DeviceDescription) throws {
        for (name, value) in [("name", device.name), ("model", device.model), ("vendorId", device.vendorId), ("os", device.os)] {
            guard (1...200).contains(value.count),
                !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw ProblemError.invalidRequest("device.\(name) must have 1 to 200 characters and no control characters")
            }
        }
    }
}
