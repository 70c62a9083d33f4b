import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    static let cibaColumns = """
        id, auth_req_hash, client_id, publisher, user_id, scope, binding_message, authorization_details, txn, \
        challenge, created_at, expires_at, interval_seconds, status, decided_at, device_id, amr, exchanged, \
        ping_auth_req_id, ping_token
        """

    // MARK: Clients

    package func saveCIBAClient(_ client: CIBAClientRecord) async throws {
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO ciba_clients (client_id, mode, notification_endpoint)
                VALUES (\(bind: client.clientId), \(bind: client.mode.rawValue), \(bind: client.notificationEndpoint))
                ON CONFLICT (client_id) DO UPDATE SET mode = excluded.mode,
                    notification_endpoint = excluded.notification_endpoint
                """
            ).run()
        }
    }

    package func cibaClient(clientId: String) async throws -> CIBAClientRecord? {
        try await provider.read { database in
            guard
                let row = try await database.raw(
                    "SELECT client_id, mode, notification_endpoint FROM ciba_clients WHERE client_id = \(bind: clientId)"
                ).first(), let mode = CIBAClientRecord.Mode(rawValue: try row.string("mode"))
            else { return nil }
            return CIBAClientRecord(
                clientId: try row.string("client_id"), mode: mode,
                notificationEndpoint: try row.optionalString("notification_endpoint"))
        }
    }

    // MARK: Requests

    package func createCIBARequest(_ r: CIBARequestRecord, limits: ApprovalLimits) async throws -> ItemStatus {
        let now = r.createdAt.storedSeconds
        return try await provider.transaction { database in
            var status = r.status
            if let userId = r.userId, status == .pending,
                try await Self.isBeyondApprovalLimits(
                    in: "ciba_requests", userId: userId, clientId: r.clientId, limits: limits, at: now, in: database)
            {
                status = .suppressed
            }
            try await database.raw(
                """
                INSERT INTO ciba_requests (\(unsafeRaw: Self.cibaColumns), last_poll_ms)
                VALUES (\(bind: r.id), \(bind: r.authRequestHash), \(bind: r.clientId), \(bind: r.publisher),
                    \(bind: r.userId), \(bind: r.scope), \(bind: r.bindingMessage), \(bind: r.authorizationDetails),
                    \(bind: r.txn), \(bind: r.challenge), \(bind: now), \(bind: r.expiresAt.storedSeconds),
                    \(bind: r.interval), \(bind: status.rawValue), NULL, NULL, NULL, 0, \(bind: r.ping?.authRequestId),
                    \(bind: r.ping?.token), \(bind: r.createdAt.storedMilliseconds))
                """
            ).run()
            if let userId = r.userId, status == .pending {
                try await Self.queuePushes(
                    of: .ciba, itemId: r.id, expiresAt: r.expiresAt, toDevicesOf: userId, publisher: r.publisher,
                    at: r.createdAt, in: database)
            }
            return status
        }
    }

    package func cibaRequest(id: String) async throws -> CIBARequestRecord? {
        try await provider.read { database in
            try await database.raw("SELECT \(unsafeRaw: Self.cibaColumns) FROM ciba_requests WHERE id = \(bind: id)")
                .first().map(Self.cibaRequestRecord)
        }
    }

    package func cibaRequest(authRequestHash: String) async throws -> CIBARequestRecord? {
        try await provider.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.cibaColumns) FROM ciba_requests WHERE auth_req_hash = \(bind: authRequestHash)"
            ).first().map(Self.cibaRequestRecord)
        }
    }

    package func pendingCIBARequests(userId: String, publisher: String, now: Date) async throws -> [CIBARequestRecord] {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.cibaColumns) FROM ciba_requests
                WHERE user_id = \(bind: userId) AND publisher = \(bind: publisher) AND status = 'pending'
                    AND expires_at > \(bind: now.storedSeconds)
                ORDER BY created_at, id
                """
            ).all().map(Self.cibaRequestRecord)
        }
    }

    package func pollCIBARequest(id: String, at now: Date) async throws -> Bool {
        let nowMs = now.storedMilliseconds
        return try await provider.transaction { database in
            // Locks the row (PostgreSQL), so that two polls at once are counted one after the other.
            guard
                let row = try await database.raw(
                    "UPDATE ciba_requests SET id = id WHERE id = \(bind: id) RETURNING last_poll_ms, interval_seconds"
                ).first()
            else { return false }
            let tooSoon = Int64(try row.int("last_poll_ms")) + Int64(try row.int("interval_seconds")) * 1000 > nowMs
            try await database.raw(
                """
                UPDATE ciba_requests SET last_poll_ms = \(bind: nowMs),
                    interval_seconds = interval_seconds + \(bind: tooSoon ? 5 : 0)
                WHERE id = \(bind: id)
                """
            ).run()
            return tooSoon
        }
    }

    package func decideCIBARequest(
        id: String, status: ItemStatus, amr: [AuthenticationMethod], by commit: DecisionCommit
    ) async throws -> DecisionCommit.Outcome {
        let amr = try Self.json(amr)
        return try await provider.transaction { database in
            if let refused = try await Self.hold(commit.signer, at: commit.now, in: database) { return .refused(refused) }
            let now = commit.now.storedSeconds
            guard
                let decided = try await database.raw(
                    """
                    UPDATE ciba_requests SET status = \(bind: status.rawValue), decided_at = \(bind: now),
                        device_id = \(bind: commit.deviceId), amr = \(bind: amr)
                    WHERE id = \(bind: id) AND status = 'pending' AND expires_at > \(bind: now)
                    RETURNING user_id, client_id
                    """
                ).first()
            else { return .notPending }
            try await Self.queueDecisionEvent(.cibaDecided, decided, status: status, by: commit, in: database)
            let due = commit.now.storedMilliseconds
            try await database.raw(
                """
                INSERT INTO ciba_pings (id, endpoint, expires_at, due_ms, attempts)
                SELECT r.id, c.notification_endpoint, r.expires_at, \(bind: due), 0
                FROM ciba_requests r JOIN ciba_clients c ON c.client_id = r.client_id
                WHERE r.id = \(bind: id) AND c.mode = 'ping' AND c.notification_endpoint IS NOT NULL
                    AND r.ping_token IS NOT NULL
                ON CONFLICT (id) DO NOTHING
                """
            ).run()
            return .recorded
        }
    }

    package func exchangeCIBARequest(id: String, session: SessionRecord, refreshTokenHash: String) async throws
        -> CIBAExchange
    {
        try await provider.transaction { database in
            switch try await Self.storeApprovedSession(
                session, refreshTokenHash: refreshTokenHash,
                taking: { approver in
                    """
                    UPDATE ciba_requests SET exchanged = 1
                    WHERE id = \(bind: id) AND status = 'approved' AND exchanged = 0 AND device_id = \(bind: approver)
                    RETURNING id
                    """
                }, in: database)
            {
            case .stored: .exchanged
            case .taken: .alreadyExchanged
            case .approverInactive: .approverInactive
            }
        }
    }

    // MARK: Pings

    package var pingOutbox: any OutboxQueue<QueuedPing> {
        SQLOutbox(provider: provider, table: "ciba_pings", wanted: Self.wantedPings)
    }

    /// The claimed pings still wanted: those whose request has not expired.
    private static func wantedPings(_ claimed: [String], at now: Date, in database: any SQLDatabase) async throws
        -> [QueuedPing]
    {
        try await database.raw(
            """
            SELECT p.id, p.endpoint, p.expires_at, p.attempts, r.ping_auth_req_id, r.ping_token
            FROM ciba_pings p JOIN ciba_requests r ON r.id = p.id
            WHERE p.id IN (\(binds: claimed)) AND p.expires_at > \(bind: now.storedSeconds)
            ORDER BY p.due_ms, p.id
            """
        ).all().map { row in
            QueuedPing(
                id: try row.string("id"), endpoint: try row.string("endpoint"),
                authRequestId: try row.string("ping_auth_req_id"), token: try row.string("ping_token"),
                expiresAt: try row.date("expires_at"), attempts: try row.int("attempts"))
        }
    }

    private static func cibaRequestRecord(_ row: any SQLRow) throws -> CIBARequestRecord {
        let pingId = try row.optionalString("ping_auth_req_id")
        let pingToken = try row.optionalString("ping_token")
        return CIBARequestRecord(
            id: try row.string("id"), authRequestHash: try row.string("auth_req_hash"),
            clientId: try row.string("client_id"), publisher: try row.string("publisher"),
            userId: try row.optionalString("user_id"), scope: try row.string("scope"),
            bindingMessage: try row.optionalString("binding_message"),
            authorizationDetails: try row.optionalString("authorization_details"), txn: try row.string("txn"),
            challenge: try row.string("challenge"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), interval: try row.int("interval_seconds"),
            status: ItemStatus(rawValue: try row.string("status")) ?? .denied,
            decidedAt: try row.optionalDate("decided_at"), deviceId: try row.optionalString("device_id"),
            amr: try row.optionalString("amr").map { try fromJSON($0, as: [AuthenticationMethod].self) },
            exchanged: try row.int("exchanged") != 0,
            ping: pingId.flatMap { id in pingToken.map { CIBARequestRecord.Ping(authRequestId: id, token: $0) } })
    }
}
