import Foundation
import SQLKit

extension SQLStore {
    func createEnrollment(_ enrollment: EnrollmentRecord) async throws {
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO enrollments (id, user_id, client_id, challenge, challenge_expires_at, state, created_at)
                VALUES (\(bind: enrollment.id), \(bind: enrollment.userId), \(bind: enrollment.clientId),
                    \(bind: enrollment.challenge), \(bind: enrollment.challengeExpiresAt.storedSeconds),
                    \(bind: enrollment.state.rawValue), \(bind: enrollment.createdAt.storedSeconds))
                """
            ).run()
        }
    }

    func enrollment(id: String) async throws -> EnrollmentRecord? {
        try await provider.read { database in
            try await database.raw("SELECT \(unsafeRaw: Self.enrollmentColumns) FROM enrollments WHERE id = \(bind: id)")
                .first().map(Self.enrollmentRecord)
        }
    }

    static let enrollmentColumns = """
        id, user_id, client_id, challenge, challenge_expires_at, state, poll_secret_hash, pending_expires_at, \
        pending_device, device_id, created_at, approval_challenge
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
            approvalChallenge: try row.optionalString("approval_challenge"))
    }

    func consumeEnrollmentChallenge(id: String, now: Date) async throws -> Bool {
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

    func parkEnrollment(
        id: String, device: PendingDevice, pollSecretHash: String, approvalChallenge: String, expiresAt: Date
    ) async throws {
        let pending = try Self.json(device)
        try await provider.write { database in
            try await database.raw(
                """
                UPDATE enrollments SET state = 'pending', pending_device = \(bind: pending),
                    poll_secret_hash = \(bind: pollSecretHash), pending_expires_at = \(bind: expiresAt.storedSeconds),
                    approval_challenge = \(bind: approvalChallenge)
                WHERE id = \(bind: id) AND state = 'consumed'
                """
            ).run()
        }
    }

    func pendingEnrollments(userId: String, excludingFingerprint fingerprint: String, now: Date) async throws
        -> [EnrollmentRecord]
    {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.enrollmentColumns) FROM enrollments
                WHERE user_id = \(bind: userId) AND state = 'pending' AND pending_expires_at > \(bind: now.storedSeconds)
                ORDER BY created_at, id
                """
            ).all().map(Self.enrollmentRecord).filter { $0.pendingDevice?.fingerprint != fingerprint }
        }
    }

    func decideEnrollment(id: String, approvedDevice device: DeviceRecord?, decidedBy: String, now: Date) async throws
        -> Bool
    {
        try await provider.transaction { database in
            let decided = try await database.raw(
                """
                UPDATE enrollments SET state = \(bind: device == nil ? "denied" : "approved"),
                    device_id = \(bind: device?.id), decided_by = \(bind: decidedBy)
                WHERE id = \(bind: id) AND state = 'pending' AND pending_expires_at > \(bind: now.storedSeconds)
                RETURNING id
                """
            ).first() != nil
            guard decided, let device else { return decided }
            try await Self.replaceAndInsert(device, in: database)
            return true
        }
    }

    func claimEnrollmentDelivery(id: String) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                "UPDATE enrollments SET delivered = 1 WHERE id = \(bind: id) AND state = 'approved' AND delivered = 0 RETURNING id"
            ).first() != nil
        }
    }

    /// Revokes the user's active devices with the new device's fingerprint, then inserts it.
    static func replaceAndInsert(_ device: DeviceRecord, in database: any SQLDatabase) async throws {
        let replaced = try await database.raw(
            """
            SELECT id FROM devices
            WHERE user_id = \(bind: device.userId) AND fingerprint = \(bind: device.fingerprint) AND revoked_at IS NULL
            """
        ).all().map { try $0.string("id") }
        for old in replaced {
            _ = try await revokeDevice(id: old, reason: "replaced by \(device.id)", at: device.createdAt, in: database)
        }
        try await insertDevice(device, in: database)
    }

    func completeEnrollment(id: String, device: DeviceRecord, session: SessionRecord, refreshTokenHash: String)
        async throws
    {
        try await provider.transaction { database in
            try await Self.replaceAndInsert(device, in: database)
            try await Self.insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
            try await database.raw(
                "UPDATE enrollments SET state = 'completed', device_id = \(bind: device.id) WHERE id = \(bind: id)"
            ).run()
        }
    }
}
