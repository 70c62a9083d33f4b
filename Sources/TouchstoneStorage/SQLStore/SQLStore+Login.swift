import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    package func loginParties(clientId: String, deviceId: String?) async throws -> (app: AppRecord?, device: DeviceRecord?) {
        try await provider.read { database in
            let row = try await database.raw(
                """
                SELECT \(unsafeRaw: Self.prefixedAppColumns), \(unsafeRaw: Self.joinedDeviceColumns)
                FROM (SELECT 1 AS asked) AS request
                LEFT JOIN apps AS a ON a.client_id = \(bind: clientId)
                LEFT JOIN devices AS d ON d.id = \(bind: deviceId)
                """
            ).first()
            guard let row else { return (nil, nil) }
            return (
                try row.decodeNil(column: "app_client_id") ? nil : try Self.appRecord(row, prefix: "app_"),
                try row.decodeNil(column: "id") ? nil : try Self.deviceRecord(row)
            )
        }
    }

    /// ``deviceColumns`` of the table `d`, keeping their names.
    private static let joinedDeviceColumns = deviceColumns.split(separator: ",")
        .map { "d." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")

    package func commitLogin(_ login: LoginCommit) async throws -> LoginCommit.Outcome {
        if provider.writesSeveralTablesInOneStatement, !login.reportedCompromised,
            case .issue(let session, let refreshTokenHash, let signer, let audit) = login.effect, signer.pin == nil
        {
            return try await commitSession(
                login, session: session, refreshTokenHash: refreshTokenHash, signer: signer, audit: audit)
        }
        return try await provider.transaction { database in
            // Each refusal below returns instead of throwing, so that what was written before it commits: the challenge
            // is consumed by the first verified assertion whatever the outcome, which also spends the assertion.
            guard
                try await Self.consumeChallenge(
                    login.challenge, subject: login.deviceId, purpose: login.purpose, now: login.now, in: database)
            else { return .challengeInvalid }
            if login.reportedCompromised,
                let device = try await database.raw(
                    """
                    UPDATE devices SET compromised = 1 WHERE id = \(bind: login.deviceId) AND compromised = 0
                    RETURNING user_id, client_id
                    """
                ).first()
            {
                let data = WebhookEventData(
                    userId: try device.string("user_id"), deviceId: login.deviceId,
                    clientId: try device.string("client_id"))
                try await Self.queueWebhookEvent(.deviceCompromised, data, at: login.now, in: database)
            }
            switch login.effect {
            case .none:
                return .committed
            case .revokeDevice(let reason, let notices):
                _ = try await Self.revokeDevice(
                    id: login.deviceId, reason: reason, at: login.now, notices: notices, in: database)
                return .committed
            case .issue(let session, let refreshTokenHash, let signer, let audit):
                if let refused = try await Self.hold(signer, at: login.now, in: database) { return .refused(refused) }
                try await Self.insertSession(session, refreshTokenHash: refreshTokenHash, in: database)
                try await Self.insertAudit(audit, in: database)
                return .committed
            }
        }
    }

    /// The commonest login (a session, no PIN, no compromise reported) as the transaction above writes it, in one
    /// statement: on PostgreSQL one round trip instead of seven (BEGIN, five statements, COMMIT). Each step runs only
    /// when the one before it wrote (a step reads the rows the step before returned), and the statement commits as a
    /// whole, so a refusal keeps the challenge consumed, as in the transaction.
    private func commitSession(
        _ login: LoginCommit, session: SessionRecord, refreshTokenHash: String, signer: SigningDevice, audit: AuditEvent
    ) async throws -> LoginCommit.Outcome {
        let sessionValues = try Self.sessionValues(session)
        let steps = try await provider.write { database in
            try await database.raw(
                """
                WITH consumed AS (
                    DELETE FROM challenges
                    WHERE challenge = \(bind: login.challenge) AND subject = \(bind: login.deviceId)
                        AND purpose = \(bind: login.purpose) AND expires_at > \(bind: login.now.storedSeconds)
                    RETURNING challenge
                ), touched AS (
                    UPDATE devices SET last_used_at = \(bind: login.now.storedSeconds)
                    WHERE \(Self.holdsKey(signer)) AND EXISTS (SELECT 1 FROM consumed)
                    RETURNING id
                ), stored AS (
                    INSERT INTO sessions (\(unsafeRaw: Self.insertedSessionColumns))
                    SELECT \(binds: sessionValues) FROM touched
                    RETURNING id
                ), refresh AS (
                    INSERT INTO refresh_tokens (\(unsafeRaw: Self.insertedRefreshTokenColumns))
                    SELECT \(binds: Self.refreshTokenValues(refreshTokenHash, of: session)) FROM stored
                ), audited AS (
                    INSERT INTO audit_events (\(unsafeRaw: Self.insertedAuditColumns))
                    SELECT \(binds: Self.auditValues(audit)) FROM touched
                )
                SELECT (SELECT COUNT(*) FROM consumed) AS consumed, (SELECT COUNT(*) FROM touched) AS touched
                """
            ).first()
        }
        guard let steps, try steps.int("consumed") == 1 else { return .challengeInvalid }
        guard try steps.int("touched") == 1 else {
            let revoked = try await provider.read { try await Self.isRevoked(login.deviceId, in: $0) }
            return .refused(revoked ? .deviceRevoked : .keyRemoved)
        }
        return .committed
    }
}
