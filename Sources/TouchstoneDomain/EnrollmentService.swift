import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// Binds user + device + keys: password first, then proofs of possession of each new key.
package struct EnrollmentService: Sendable {
    typealias Store = EnrollmentStore & DeviceStore & RecoveryStore & AppStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    /// How long an enrolment challenge lives.
    let challengeLifetime: TimeInterval
    /// How long an enrolment waits for another device's approval.
    let pendingEnrollmentLifetime: TimeInterval
    let hasher: PasswordHasher
    let metrics: ServerMetrics
    let auditor: Auditor
    let throttle: PasswordThrottle
    let passwords: PasswordCheck
    let gate: DeviceTokenGate
    let attestations: KeyAttestationCheck
    let decisions: DecisionService
    let sessionIssuer: SessionIssuer

    /// The answer to a completed enrolment.
    package enum Outcome: Sendable {
        case completed(EnrollmentCompleted)
        case pending(EnrollmentPending)
    }

    /// `POST /v1/enrollments`: checks the password (and the recovery code, if one is sent) and issues the enrolment
    /// challenge. The password check takes its hashing slot before the attempt is counted.
    /// - Throws: 503 `temporarily_unavailable` when the hashing gate is full (nothing counted); 400 `invalid_request`
    ///   for a recovery code that is not shaped like one (nothing counted); 401 `invalid_credentials` for a wrong
    ///   password or a wrong or used code (both counted by the password throttle);
    ///   403 `recovery_code_required` when the app asks for approval, the user has no active device to give it but
    ///   has a passkey or unused codes, and no code was sent.
    package func start(_ request: EnrollmentStartRequest, ip: String) async throws -> EnrollmentStarted {
        let app = try await store.existingApp(request.clientId)
        let code = try request.recoveryCode.map { text in
            guard let code = RecoveryCode.normalized(text) else {
                throw ProblemError.invalidRequest(
                    "recoveryCode must be 12 characters of a-z and 2-7, in groups of four with optional hyphens")
            }
            return code
        }
        // With a code, the attempt proves right only once the code does too.
        let user = try await passwords.verify(
            username: request.username, password: request.password, clientId: app.clientId, ip: ip,
            event: .enrollmentStart, forgiving: code == nil)
        var codeHash: String?
        if let code {
            guard let digest = try await store.unusedRecoveryCode(code, of: user.id) else {
                await auditor.record(
                    .enrollmentStart, outcome: .refused(.invalidCredentials), userId: user.id, clientId: app.clientId, ip: ip,
                    detail: "wrong or used recovery code")
                throw ProblemError.invalidCredentials
            }
            try await throttle.succeeded(username: request.username, address: ip)
            codeHash = digest
        } else if app.policy.newDeviceApproval,
            try await store.devices(userId: user.id).allSatisfy({ !$0.isActive }),
            try await store.hasRecoveryCredentials(userId: user.id)
        {
            await auditor.record(
                .enrollmentStart, outcome: .refused(.recoveryCodeRequired), userId: user.id, clientId: app.clientId, ip: ip)
            throw Self.recoveryCodeRequired
        }
        let now = clock.now()
        let enrollment = EnrollmentRecord(
            id: random.recordID(), userId: user.id, clientId: app.clientId,
            challenge: random.token(), challengeExpiresAt: now + challengeLifetime,
            state: .started, createdAt: now, recoveryCodeHash: codeHash)
        guard try await store.createEnrollment(enrollment, passwordHash: user.passwordHash) else {
            throw ProblemError.invalidCredentials
        }
        await auditor.record(
            .enrollmentStart, outcome: .ok, userId: user.id, clientId: app.clientId, ip: ip,
            detail: codeHash == nil ? nil : "with a recovery code")
        return EnrollmentStarted(
            enrollmentId: enrollment.id, challenge: enrollment.challenge, expiresAt: enrollment.challengeExpiresAt)
    }

    /// `POST /v1/enrollments/{id}/complete`. With a PIN to hash it is admitted by the hashing gate before anything is
    /// counted, audited or spent: a refusal leaves the challenge and the proofs unused.
    package func complete(id: String, _ request: EnrollmentCompletion, ip: String) async throws -> Outcome {
        let now = clock.now()
        guard let enrollment = try await store.enrollment(id: id), enrollment.state == .started,
            enrollment.challengeExpiresAt > now
        else { throw ProblemError.challengeInvalid }
        let app = try await store.existingApp(enrollment.clientId)
        return try await hasher.admitting(if: request.pin != nil) {
            try await metrics.countingEnrollment {
                try await auditor.recording(
                    .enrollmentComplete, userId: enrollment.userId, clientId: app.clientId, ip: ip, success: false
                ) {
                    try await complete(enrollment, app: app, request, ip: ip, now: now)
                }
            }
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
            throw ProblemError(.biometryNotAllowed, detail: "This app's policy does not allow biometric keys.")
        }
        if let pin = request.pin {
            if let problem = policy.pinProblem(pin) { throw ProblemError.invalidPIN(problem) }
        } else if policy.pinRequired || biometricKey == nil {
            throw ProblemError(.pinRequired)
        }

        // A device of the user with the same description is replaced only by a proof from its own device key: a
        // description is not a secret. With no such device (revoked meanwhile, say) the proof has nothing to prove.
        let fingerprint = DeviceFingerprint.of(request.device)
        let active = try await store.devices(userId: enrollment.userId).filter(\.isActive)
        var previous: DeviceRecord?
        var proofs = [(deviceKey, Optional(request.deviceProof))]
        if let biometricKey { proofs.append((biometricKey, request.biometricProof)) }
        if let previousProof = request.previousDeviceProof,
            let replaced = active.first(where: { $0.fingerprint == fingerprint })
        {
            previous = replaced
            proofs.append((replaced.deviceKey, previousProof))
        }
        let verified = try proofs.map { key, proof in
            guard let proof else { throw ProblemError.invalidProof }
            let token = try DeviceTokenGate.parse(proof, invalid: .invalidProof)
            let verified = try gate.verify(token, key: key, as: ProofClaims.self, issuer: enrollment.id, invalid: .invalidProof)
            guard verified.claims.verify(answering: enrollment.challenge) else { throw ProblemError.invalidProof }
            return verified
        }
        if request.device.compromised, policy.refuseCompromisedDevices { throw ProblemError.deviceCompromised }
        // Before anything is spent or stored: a refused attestation leaves the enrolment as it was.
        let attestation = try attestations.verify(
            request.attestation,
            of: KeyAttestationCheck.Subject(
                enrollmentId: id, challenge: enrollment.challenge, deviceKey: deviceKey, biometricKey: biometricKey),
            for: app)
        try await gate.spend(verified, replayed: .challengeInvalid)
        guard try await store.consumeEnrollmentChallenge(id: id, now: now) else {
            throw ProblemError.challengeInvalid
        }

        var pinHash: String?
        if let pin = request.pin {
            pinHash = try await hasher.hash(pin)
        }
        let pending = PendingDevice(
            device: request.device, fingerprint: fingerprint, deviceKey: deviceKey.jwk,
            deviceKeyThumbprint: deviceKey.thumbprint, biometricKey: biometricKey?.jwk,
            biometricKeyThumbprint: biometricKey?.thumbprint, pinHash: pinHash, ip: ip, attestation: attestation)
        // A new device needs another device's approval, a recovery code, or (while the user has no other way in) nothing.
        let condition: EnrollmentCondition
        if let codeHash = enrollment.recoveryCodeHash {
            condition = .recoveryCode(hash: codeHash)
        } else if previous != nil || !policy.newDeviceApproval {
            condition = .none
        } else if !active.isEmpty {
            return try await park(enrollment, device: pending, now: now)
        } else {
            condition = .firstCredential
        }

        let device = DeviceRecord(
            id: random.recordID(), userId: enrollment.userId, clientId: app.clientId, publisher: app.publisher,
            name: request.device.name, model: request.device.model, vendorId: request.device.vendorId,
            os: request.device.os, fingerprint: fingerprint, deviceKey: deviceKey,
            deviceKeyThumbprint: deviceKey.thumbprint, biometricKey: biometricKey,
            biometricKeyThumbprint: biometricKey?.thumbprint, pinHash: pinHash, pinFailures: 0, pinLockedAt: nil,
            createdAt: now, lastUsedAt: now, revokedAt: nil, compromised: request.device.compromised,
            attestation: attestation)
        let session = sessionIssuer.prepare(
            userId: enrollment.userId, device: device, clientId: app.clientId,
            amr: [biometricKey == nil ? .pin : .biometric], acr: .aal2, ip: ip)
        var notices = [
            SecurityNotices.draft(
                .deviceAdded, userId: device.userId, device: device, actingDevice: device.id, ip: ip, at: now)
        ]
        if case .recoveryCode = condition {
            notices.append(
                SecurityNotices.draft(
                    .recoveryCodeUsed, userId: device.userId, device: device, actingDevice: device.id, ip: ip, at: now))
        }
        if let previous {
            notices.append(
                SecurityNotices.draft(
                    .deviceRemoved, userId: device.userId, device: previous, actingDevice: device.id, ip: ip, at: now))
        }
        switch try await store.completeEnrollment(
            id: id, device: device, replacing: previous?.id, condition: condition, session: session.record,
            refreshTokenHash: session.refreshTokenHash, notices: notices)
        {
        case .completed:
            break
        case .cancelled:
            throw ProblemError.challengeInvalid
        case .recoveryCodeSpent:
            throw ProblemError.invalidCredentials
        case .credentialsExist:
            // Another device (or a passkey, or codes) came meanwhile: the enrolment needs what a new device needs now.
            if try await store.devices(userId: enrollment.userId).contains(where: \.isActive) {
                return try await park(enrollment, device: pending, now: now)
            }
            throw Self.recoveryCodeRequired
        }
        var detail = previous.map { "replaced \($0.id)" }
        if case .recoveryCode = condition { detail = "with a recovery code" }
        await auditor.record(
            .enrollmentComplete, outcome: .ok, userId: enrollment.userId, deviceId: device.id,
            clientId: app.clientId, ip: ip, detail: detail)
        return .completed(EnrollmentCompleted(deviceId: device.id, session: try await sessionIssuer.issue(session)))
    }

    /// Parks an enrolment until one of the user's active devices approves it, within the approval limits.
    /// - Throws: 429 `too_many_attempts` when the user already has an approval pending, had five in the last hour, or
    ///   denied one in the last 15 minutes: the enrolment ends and nothing reaches any device.
    private func park(_ enrollment: EnrollmentRecord, device: PendingDevice, now: Date) async throws -> Outcome {
        let pollSecret = random.token()
        let expiresAt = now + pendingEnrollmentLifetime
        let (number, numbers) = NumberMatching.draw(using: random)
        let parked = try await store.parkEnrollment(
            ApprovalRequest(
                enrollmentId: enrollment.id, userId: enrollment.userId, device: device,
                pollSecretHash: SecretDigest.sha256(pollSecret), challenge: random.token(), number: number,
                numbers: numbers, expiresAt: expiresAt, now: now),
            limits: .standard)
        guard parked else {
            throw ProblemError(.tooManyAttempts, detail: "Too many requests to approve a new device; try again later.",
                retryAfter: Int(ApprovalLimits.standard.coolDown))
        }
        await auditor.record(
            .enrollmentComplete, outcome: .approvalPending, userId: enrollment.userId, clientId: enrollment.clientId,
            ip: device.ip)
        return .pending(
            EnrollmentPending(enrollmentId: enrollment.id, pollSecret: pollSecret, expiresAt: expiresAt, number: number))
    }

    /// `GET /v1/enrollments/{id}` with the poll secret; an approved enrolment's device id and session come once, and
    /// only while the device is active.
    package func poll(id: String, pollSecret: String?, ip: String? = nil) async throws -> EnrollmentPoll {
        let notFound = ProblemError(.notFound, detail: "No such enrolment.")
        guard let pollSecret, let enrollment = try await store.enrollment(id: id),
            let expected = enrollment.pollSecretHash,
            SecretDigest.constantTimeEquals(SecretDigest.sha256(pollSecret), expected)
        else { throw notFound }
        switch enrollment.state {
        case .pending:
            let expired = enrollment.pendingExpiresAt.map { $0 <= clock.now() } ?? true
            return EnrollmentPoll(status: expired ? .expired : .pending)
        case .denied, .cancelled:
            return EnrollmentPoll(status: .denied)
        case .approved, .completed:
            guard let deviceId = enrollment.deviceId, let device = try await store.device(id: deviceId),
                device.isActive
            else { return EnrollmentPoll(status: .approved, deviceId: enrollment.deviceId) }
            let session = sessionIssuer.prepare(
                userId: device.userId, device: device, clientId: enrollment.clientId,
                amr: [device.biometricKey == nil ? .pin : .biometric], acr: .aal2, ip: ip)
            guard
                try await store.deliverEnrollment(
                    id: id, session: session.record, refreshTokenHash: session.refreshTokenHash)
            else { return EnrollmentPoll(status: .approved, deviceId: deviceId) }
            return EnrollmentPoll(status: .approved, deviceId: deviceId, session: try await sessionIssuer.issue(session))
        case .started, .consumed:
            throw notFound
        }
    }

    /// `POST /v1/enrollments/{id}/decision`: another active device of the user approves or denies a new device, picking
    /// the number the new device shows (another number denies it).
    package func decide(_ id: String, assertion: String, ip: String) async throws -> DecisionRecorded {
        guard let enrollment = try await store.enrollment(id: id), enrollment.state != .started,
            enrollment.state != .consumed, let pending = enrollment.pendingDevice,
            let challenge = enrollment.approvalChallenge, let expiresAt = enrollment.pendingExpiresAt
        else { throw ProblemError(.notFound, detail: "No such enrolment.") }
        return try await auditor.recording(
            .enrollmentDecide, userId: enrollment.userId, clientId: enrollment.clientId, ip: ip
        ) {
            let target = DecisionTarget(
                id: id, challenge: challenge, expiresAt: expiresAt, isDecided: enrollment.state != .pending,
                isRecipient: { device in device.isActive && device.userId == enrollment.userId },
                txn: nil, policy: .decidingDevice)
            let decision = try await decisions.verify(assertion, for: target)
            let approves = decision.approves && decision.claims.number == enrollment.approvalNumber
            var device: DeviceRecord?
            if approves {
                let app = try await store.existingApp(enrollment.clientId)
                let now = decision.commit.now
                device = DeviceRecord(
                    id: random.recordID(), userId: enrollment.userId, clientId: app.clientId,
                    publisher: app.publisher, name: pending.device.name, model: pending.device.model,
                    vendorId: pending.device.vendorId, os: pending.device.os, fingerprint: pending.fingerprint,
                    deviceKey: try DevicePublicKey(jwk: pending.deviceKey),
                    deviceKeyThumbprint: pending.deviceKeyThumbprint,
                    biometricKey: try pending.biometricKey.map(DevicePublicKey.init(jwk:)),
                    biometricKeyThumbprint: pending.biometricKeyThumbprint,
                    pinHash: pending.pinHash, pinFailures: 0, pinLockedAt: nil, createdAt: now, lastUsedAt: now,
                    revokedAt: nil, compromised: pending.device.compromised, attestation: pending.attestation)
            }
            let notices = device.map { device in
                [
                    SecurityNotices.draft(
                        .deviceAdded, userId: device.userId, device: device, actingDevice: device.id, ip: pending.ip,
                        at: device.createdAt)
                ]
            }
            try decisions.settle(
                try await store.decideEnrollment(
                    id: id, approvedDevice: device, by: decision.commit, notices: notices ?? []))
            metrics.enrollment(outcome: approves ? "success" : "denied")
            return DecisionRecorded(status: approves ? .approved : .denied)
        }
    }

    private static let recoveryCodeRequired = ProblemError(
        .recoveryCodeRequired, detail: "No device can approve this one: enter one of your recovery codes.")

    private static func key(_ jwk: PublicJWK) async throws -> DevicePublicKey {
        do {
            return try DevicePublicKey(jwk: jwk)
        } catch {
            throw ProblemError.invalidKey("\(error)")
        }
    }

    private static func checkDescription(_ device: DeviceDescription) throws {
        try TextRules.check(device.name, field: "device.name", length: 1...64)
        try TextRules.check(device.model, field: "device.model", length: 1...64)
        try TextRules.check(device.vendorId, field: "device.vendorId", length: 1...200)
        try TextRules.check(device.os, field: "device.os", length: 1...200)
    }

}
