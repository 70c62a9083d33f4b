import Foundation
import SQLKit

extension SQLStore {
    package func createEnrollment(_ enrollment: EnrollmentRecord, passwordHash: String) async throws -> Bool {
        try await provider.transaction { database in
            guard
                try await Self.lockUnchangedPassword(userId: enrollment.userId, passwordHash: passwordHash, in: database)
            else { return false }
            try await database.raw(
                """
                INSERT INTO enrollments (
                    id, user_id, client_id, challenge, challenge_expires_at, state, created_at, recovery_code_hash)
                VALUES (\(bind: enrollment.id), \(bind: enrollment.userId), \(bind: enrollment.clientId),
                    \(bind: enrollment.challenge), \(bind: enrollment.challengeExpiresAt.storedSeconds),
                    \(bind: enrollment.state.rawValue), \(bind: enrollment.createdAt.storedSeconds),
                    \(bind: enrollment.recoveryCodeHash))
                """
            ).run()
            return true
        }
    }

    package func enrollment(id: String) async throws -> EnrollmentRecord? {
        try await provider.read { database in
            try await database.raw("SELECT \(unsafeRaw: Self.enrollmentColumns) FROM enrollments WHERE id = \(bind: id)")
                .first().map(Self.enrollmentRecord)
        }
    }

    static let enrollmentColumns = """
        id, user_id, client_id, challenge, challenge_expires_at, state, poll_secret_hash, pending_expires_at, \
        pending_device, device_id, created_at, approval_challenge, approval_number, approval_numbers, recovery_code_hash
        """

    static func enrollmentRecord(_ row: any SQLRow) throws -> EnrollmentRecord {
        EnrollmentRecord(
            id: try row.string("id"), userId: try row.string("user_id"), clientId: try row.string("client_id"),
            challenge: try row.string("challenge"), challengeExpiresAt: try row.date("challenge_expires_at"),
            state: EnrollmentRecord.State(rawValue: try row.string("state")) ?? .denied,
            pollSecretHash: try row.optionalString("poll_secret_hash"),
            pendingExpiresAt: try row.optionalDate("pending_expires_at"),
            pendingDevice: try row.optionalString("pending_device").map { try fromJSON($0, as: PendingDevice.self) },
            deviceId: try row.optionalString("device_id"), createdAt: try row.date("created_at"),
            approvalChallenge: try row.optionalString("approval_challenge"),
            approvalNumber: try row.decode(column: "approval_number", as: Int?.self),
            approvalNumbers: try row.optionalString("approval_numbers").map { try fromJSON($0, as: [Int].self) },
            recoveryCodeHash: try row.optionalString("recovery_code_hash"))
    }

    package func consumeEnrollmentChallenge(id: String, now: Date) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                """
                UPDATE enrollments SET state = 'consumed'
                WHERE id = \(bind: id) AND state = 'started' AND challenge_expires_at > \(bind: now.storedSeconds)
                RETURNING id
                """
            ).first() != nil
        }
    }

    package func parkEnrollment(_ request: ApprovalRequest, limits: ApprovalLimits) async throws -> Bool {
        let pending = try Self.json(request.device)
        let numbers = try Self.json(request.numbers)
        let now = request.now.storedSeconds
        return try await provider.transaction { database in
            // Lock the user's row first, so that concurrent requests count one another (PostgreSQL).
            try await database.raw("UPDATE users SET id = id WHERE id = \(bind: request.userId)").run()
            let recent = try await database.raw(
                """
                SELECT
                    SUM(CASE WHEN state = 'pending' AND pending_expires_at > \(bind: now) THEN 1 ELSE 0 END) AS pending,
                    SUM(CASE WHEN parked_at > \(bind: now - limits.window) THEN 1 ELSE 0 END) AS recent,
                    SUM(CASE WHEN state = 'denied' AND decided_at > \(bind: now - limits.coolDown) THEN 1 ELSE 0 END) AS denied
                FROM enrollments WHERE user_id = \(bind: request.userId)
                """
            ).first()
            let pendingCount = try recent?.decode(column: "pending", as: Int?.self) ?? 0
            let recentCount = try recent?.decode(column: "recent", as: Int?.self) ?? 0
            let deniedCount = try recent?.decode(column: "denied", as: Int?.self) ?? 0
            guard pendingCount == 0, recentCount < limits.perWindow, deniedCount == 0 else {
                try await database.raw(
                    "UPDATE enrollments SET state = 'cancelled' WHERE id = \(bind: request.enrollmentId) AND state = 'consumed'"
                ).run()
                return false
            }
            let parked = try await database.raw(
                """
                UPDATE enrollments SET state = 'pending', pending_device = \(bind: pending),
                    poll_secret_hash = \(bind: request.pollSecretHash),
                    pending_expires_at = \(bind: request.expiresAt.storedSeconds),
                    approval_challenge = \(bind: request.challenge), approval_number = \(bind: request.number),
                    approval_numbers = \(bind: numbers), parked_at = \(bind: now)
                WHERE id = \(bind: request.enrollmentId) AND state = 'consumed'
                RETURNING id
                """
            ).first() != nil
            if parked {
                try await Self.queuePushes(
                    of: .enrollment, itemId: request.enrollmentId, expiresAt: request.expiresAt,
                    toDevicesOf: request.userId, publisher: nil, at: request.now, in: database)
            }
            return parked
        }
    }

    package func pendingEnrollments(userId: String, now: Date) async throws -> [EnrollmentRecord] {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.enrollmentColumns) FROM enrollments
                WHERE user_id = \(bind: userId) AND state = 'pending' AND pending_expires_at > \(bind: now.storedSeconds)
                ORDER BY created_at, id
                """
            ).all().map(Self.enrollmentRecord)
        }
    }

    package func decideEnrollment(
        id: String, approvedDevice device: DeviceRecord?, by commit: DecisionCommit, notices: [NoticeDraft]
    ) async throws -> DecisionCommit.Outcome {
        try await provider.transaction { database in
            if let refused = try await Self.hold(commit.signer, at: commit.now, in: database) { return .refused(refused) }
            let decided = try await database.raw(
                """
                UPDATE enrollments SET state = \(bind: device == nil ? "denied" : "approved"),
                    device_id = \(bind: device?.id), decided_by = \(bind: commit.deviceId),
                    decided_at = \(bind: commit.now.storedSeconds)
                WHERE id = \(bind: id) AND state = 'pending' AND pending_expires_at > \(bind: commit.now.storedSeconds)
                RETURNING id
                """
            ).first() != nil
            guard decided else { return .notPending }
            if let device {
                try await Self.insertNotices(notices, in: database)
                try await Self.insertDevice(device, in: database)
            }
            return .recorded
        }
    }

    package func deliverEnrollment(id: String, session: SessionRecord, refreshTokenHash: String) async throws -> Bool {
        try await provider.transaction { database in
            // The device's row stays locked until commit: a revocation comes wholly before (no session) or after (and
            // ends it).
            guard let deviceId = session.deviceId,
                try await database.raw(
                    "UPDATE devices SET id = id WHERE id = \(bind: deviceId) AND revoked_at IS NULL RETURNING id"
                ).first() != nil,
                try await database.raw(
                    """
                    UPDATE enrollments SET delivered = 1
                    WHERE id = \(bind: id) AND state = 'approved' AND delivered = 0 AND device_id = \(bind: deviceId)
                    RETURNING id
                    """
                ).first() != nil
            else { return false }
            try await Self.insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
            return true
        }
    }

    package func completeEnrollment(
        id: String, device: DeviceRecord, replacing previous: String?, condition: EnrollmentCondition,
        session: SessionRecord, refreshTokenHash: String, notices: [NoticeDraft]
    ) async throws -> EnrollmentCompletionOutcome {
        do {
            return try await provider.transaction { database in
                // The user's row first, as a new set of recovery codes and a first passkey take it.
                try await database.raw("UPDATE users SET id = id WHERE id = \(bind: device.userId)").run()
                switch condition {
                case .none:
                    break
                case .firstCredential:
                    let hasDeviceOrPasskey = try await Self.hasCredentials(userId: device.userId, in: database)
                    let hasCodeOrPasskey = try await Self.hasRecoveryCredentials(userId: device.userId, in: database)
                    if hasDeviceOrPasskey || hasCodeOrPasskey { throw CompletionRefused(outcome: .credentialsExist) }
                case .recoveryCode(let hash):
                    guard
                        try await Self.spendRecoveryCode(
                            userId: device.userId, hash: hash, at: device.createdAt, in: database)
                    else { throw CompletionRefused(outcome: .recoveryCodeSpent) }
                }
                // A password change meanwhile cancelled the enrolment.
                guard
                    try await database.raw(
                        """
                        UPDATE enrollments SET state = 'completed', device_id = \(bind: device.id)
                        WHERE id = \(bind: id) AND state = 'consumed' RETURNING id
                        """
                    ).first() != nil
                else { throw CompletionRefused(outcome: .cancelled) }
                if let previous {
                    _ = try await Self.revokeDevice(
                        id: previous, reason: "replaced by \(device.id)", at: device.createdAt, in: database)
                }
                try await Self.insertNotices(notices, in: database)
                try await Self.insertDevice(device, in: database)
                try await Self.insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
                return .completed
            }
        } catch let refused as CompletionRefused {
            return refused.outcome
        }
    }
}

/// Rolls back a completion that must store nothing, with what stopped it.
private struct CompletionRefused: Error {
    let outcome: EnrollmentCompletionOutcome
}
