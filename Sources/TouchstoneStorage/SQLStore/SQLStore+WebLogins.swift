import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    static let webLoginColumns = """
        id, user_id, client_id, publisher, number, numbers, poll_secret_hash, challenge, browser, ip, created_at, \
        expires_at, status, decided_at, device_id, amr, sign_in_request_id, authorization_details, txn
        """

    package func createWebLogin(_ w: WebLoginRecord, limits: ApprovalLimits) async throws -> ItemStatus {
        let now = w.createdAt.storedSeconds
        let numbers = try Self.json(w.numbers)
        return try await provider.transaction { database in
            var status = w.status
            if let userId = w.userId, status == .pending,
                try await Self.isBeyondApprovalLimits(
                    in: "web_logins", userId: userId, clientId: nil, limits: limits, at: now, in: database)
            {
                status = .suppressed
            }
            try await database.raw(
                """
                INSERT INTO web_logins (\(unsafeRaw: Self.webLoginColumns))
                VALUES (\(bind: w.id), \(bind: w.userId), \(bind: w.clientId), \(bind: w.publisher), \(bind: w.number),
                    \(bind: numbers), \(bind: w.pollSecretHash), \(bind: w.challenge), \(bind: w.browser), \(bind: w.ip),
                    \(bind: w.createdAt.storedSeconds), \(bind: w.expiresAt.storedSeconds), \(bind: status.rawValue),
                    NULL, NULL, NULL, \(bind: w.signInRequestId), \(bind: w.authorizationDetails), \(bind: w.txn))
                """
            ).run()
            if let userId = w.userId, status == .pending {
                try await Self.queuePushes(
                    of: .webLogin, itemId: w.id, expiresAt: w.expiresAt, toDevicesOf: userId, publisher: w.publisher,
                    at: w.createdAt, in: database)
            }
            return status
        }
    }

    package func webLogin(id: String) async throws -> WebLoginRecord? {
        try await provider.read { database in
            try await database.raw("SELECT \(unsafeRaw: Self.webLoginColumns) FROM web_logins WHERE id = \(bind: id)")
                .first().map(Self.webLoginRecord)
        }
    }

    package func pendingWebLogins(userId: String, publisher: String, now: Date) async throws -> [WebLoginRecord] {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.webLoginColumns) FROM web_logins
                WHERE user_id = \(bind: userId) AND publisher = \(bind: publisher) AND status = 'pending'
                    AND expires_at > \(bind: now.storedSeconds)
                ORDER BY created_at, id
                """
            ).all().map(Self.webLoginRecord)
        }
    }

    package func decideWebLogin(id: String, status: ItemStatus, amr: [AuthenticationMethod], by commit: DecisionCommit) async throws
        -> DecisionCommit.Outcome
    {
        let amr = try Self.json(amr)
        return try await provider.transaction { database in
            if let refused = try await Self.hold(commit.signer, at: commit.now, in: database) { return .refused(refused) }
            let now = commit.now.storedSeconds
            return try await database.raw(
                """
                UPDATE web_logins SET status = \(bind: status.rawValue), decided_at = \(bind: now),
                    device_id = \(bind: commit.deviceId), amr = \(bind: amr)
                WHERE id = \(bind: id) AND status = 'pending' AND expires_at > \(bind: now)
                RETURNING id
                """
            ).first() != nil ? .recorded : .notPending
        }
    }

    package func deliverWebLogin(id: String, session: SessionRecord, refreshTokenHash: String) async throws -> WebLoginDelivery {
        try await provider.transaction { database in
            switch try await Self.storeApprovedSession(
                session, refreshTokenHash: refreshTokenHash,
                taking: { approver in
                    """
                    UPDATE web_logins SET delivered = 1, session_id = \(bind: session.id)
                    WHERE id = \(bind: id) AND status = 'approved' AND delivered = 0 AND device_id = \(bind: approver)
                    RETURNING id
                    """
                }, in: database)
            {
            case .stored: .delivered
            case .taken: .alreadyDelivered
            case .approverInactive: .approverInactive
            }
        }
    }

    package func webLoginApproval(signInRequestId: String, sessionId: String) async throws -> WebLoginRecord? {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.webLoginColumns) FROM web_logins
                WHERE sign_in_request_id = \(bind: signInRequestId) AND session_id = \(bind: sessionId)
                    AND status = 'approved'
                """
            ).first().map(Self.webLoginRecord)
        }
    }

    private static func webLoginRecord(_ row: any SQLRow) throws -> WebLoginRecord {
        WebLoginRecord(
            id: try row.string("id"), userId: try row.optionalString("user_id"), clientId: try row.string("client_id"),
            publisher: try row.string("publisher"), number: try row.int("number"),
            numbers: try fromJSON(try row.string("numbers"), as: [Int].self),
            pollSecretHash: try row.string("poll_secret_hash"), challenge: try row.string("challenge"),
            browser: try row.string("browser"), ip: try row.string("ip"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), status: ItemStatus(rawValue: try row.string("status")) ?? .denied,
            decidedAt: try row.optionalDate("decided_at"), deviceId: try row.optionalString("device_id"),
            amr: try row.optionalString("amr").map { try fromJSON($0, as: [AuthenticationMethod].self) },
            signInRequestId: try row.optionalString("sign_in_request_id"),
            authorizationDetails: try row.optionalString("authorization_details"), txn: try row.optionalString("txn"))
    }
}
