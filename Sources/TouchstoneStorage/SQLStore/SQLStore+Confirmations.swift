import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    static let confirmationColumns = """
        id, client_id, publisher, user_id, text, amount, currency, payee, txn, challenge, created_at, expires_at, \
        status, decided_at, device_id, amr
        """

    package func createConfirmation(_ c: ConfirmationRecord) async throws {
        try await provider.transaction { database in
            try await database.raw(
                """
                INSERT INTO confirmations (\(unsafeRaw: Self.confirmationColumns))
                VALUES (\(bind: c.id), \(bind: c.clientId), \(bind: c.publisher), \(bind: c.userId), \(bind: c.text),
                    \(bind: c.amount), \(bind: c.currency), \(bind: c.payee), \(bind: c.txn), \(bind: c.challenge),
                    \(bind: c.createdAt.storedSeconds), \(bind: c.expiresAt.storedSeconds), \(bind: c.status.rawValue),
                    NULL, NULL, NULL)
                """
            ).run()
            if let userId = c.userId, c.status == .pending {
                try await Self.queuePushes(
                    of: .confirmation, itemId: c.id, expiresAt: c.expiresAt, toDevicesOf: userId,
                    publisher: c.publisher, at: c.createdAt, in: database)
            }
        }
    }

    package func confirmation(id: String) async throws -> ConfirmationRecord? {
        try await provider.read { database in
            try await database.raw("SELECT \(unsafeRaw: Self.confirmationColumns) FROM confirmations WHERE id = \(bind: id)")
                .first().map(Self.confirmationRecord)
        }
    }

    package func pendingConfirmations(userId: String, publisher: String, now: Date) async throws -> [ConfirmationRecord] {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.confirmationColumns) FROM confirmations
                WHERE user_id = \(bind: userId) AND publisher = \(bind: publisher) AND status = 'pending'
                    AND expires_at > \(bind: now.storedSeconds)
                ORDER BY created_at, id
                """
            ).all().map(Self.confirmationRecord)
        }
    }

    package func decideConfirmation(
        id: String, status: ItemStatus, amr: [AuthenticationMethod], decisionDigest: String, by commit: DecisionCommit
    ) async throws -> DecisionCommit.Outcome {
        let amr = try Self.json(amr)
        return try await provider.transaction { database in
            if let refused = try await Self.hold(commit.signer, at: commit.now, in: database) { return .refused(refused) }
            let now = commit.now.storedSeconds
            guard
                let decided = try await database.raw(
                    """
                    UPDATE confirmations SET status = \(bind: status.rawValue), decided_at = \(bind: now),
                        device_id = \(bind: commit.deviceId), amr = \(bind: amr), decision_digest = \(bind: decisionDigest)
                    WHERE id = \(bind: id) AND status = 'pending' AND expires_at > \(bind: now)
                    RETURNING user_id, client_id
                    """
                ).first()
            else { return .notPending }
            try await Self.queueDecisionEvent(.confirmationDecided, decided, status: status, by: commit, in: database)
            return .recorded
        }
    }

    private static func confirmationRecord(_ row: any SQLRow) throws -> ConfirmationRecord {
        ConfirmationRecord(
            id: try row.string("id"), clientId: try row.string("client_id"), publisher: try row.string("publisher"),
            userId: try row.optionalString("user_id"), text: try row.string("text"), amount: try row.string("amount"),
            currency: try row.string("currency"), payee: try row.string("payee"), txn: try row.string("txn"),
            challenge: try row.string("challenge"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), status: ItemStatus(rawValue: try row.string("status")) ?? .denied,
            decidedAt: try row.optionalDate("decided_at"), deviceId: try row.optionalString("device_id"),
            amr: try row.optionalString("amr").map { try fromJSON($0, as: [AuthenticationMethod].self) })
    }
}
