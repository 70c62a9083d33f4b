import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    /// At most this many pushes wait per device; beyond it the oldest notices' pushes are dropped.
    static let queuedPushesPerDevice = 100
    /// How long a notice's push may wait to be sent.
    static let noticePushLifetime: TimeInterval = 86_400

    // MARK: Queuing, in the transaction that creates the item

    /// Queues a push of a request (confirmation, web login, enrolment) to every active device of `userId` (of
    /// `publisher` when given) that sees it in its inbox, inside the caller's transaction.
    static func queuePushes(
        of kind: InboxItemKind, itemId: String, expiresAt: Date, toDevicesOf userId: String, publisher: String?,
        at now: Date, in database: any SQLDatabase
    ) async throws {
        let queued = now.storedMilliseconds
        let ofPublisher: SQLQueryString = publisher.map { publisher -> SQLQueryString in " AND publisher = \(bind: publisher)" } ?? ""
        try await database.raw(
            """
            INSERT INTO push_outbox (id, device_id, kind, item_id, event, expires_at, queued_ms, due_ms, attempts)
            SELECT \(bind: itemId) || '/' || id, id, \(bind: kind.rawValue), \(bind: itemId), NULL,
                \(bind: expiresAt.storedSeconds), \(bind: queued), \(bind: queued), 0
            FROM devices
            WHERE user_id = \(bind: userId) AND revoked_at IS NULL
            """ + ofPublisher + " ON CONFLICT (id) DO NOTHING"
        ).run()
        try await dropOldestNoticePushes(ofDevicesOf: userId, in: database)
    }

    /// Queues the push of one device's copy of a notice, inside the caller's transaction.
    static func queueNoticePush(
        noticeId: String, event: SecurityEvent, deviceId: String, at now: Date, in database: any SQLDatabase
    ) async throws {
        let queued = now.storedMilliseconds
        try await database.raw(
            """
            INSERT INTO push_outbox (id, device_id, kind, item_id, event, expires_at, queued_ms, due_ms, attempts)
            VALUES (\(bind: noticeId + "/" + deviceId), \(bind: deviceId), \(bind: InboxItemKind.notice.rawValue),
                \(bind: noticeId), \(bind: event.rawValue),
                \(bind: now.addingTimeInterval(noticePushLifetime).storedSeconds), \(bind: queued), \(bind: queued), 0)
            ON CONFLICT (id) DO NOTHING
            """
        ).run()
    }

    /// Keeps at most ``queuedPushesPerDevice`` pushes per device of the user by dropping the oldest notices' pushes.
    static func dropOldestNoticePushes(ofDevicesOf userId: String, in database: any SQLDatabase) async throws {
        try await database.raw(
            """
            DELETE FROM push_outbox WHERE id IN (
                SELECT id FROM (
                    SELECT o.id, o.kind,
                        ROW_NUMBER() OVER (PARTITION BY o.device_id, o.kind ORDER BY o.queued_ms, o.id) AS n,
                        COUNT(*) OVER (PARTITION BY o.device_id) AS queued
                    FROM push_outbox o JOIN devices d ON d.id = o.device_id
                    WHERE d.user_id = \(bind: userId)
                ) ranked
                WHERE kind = \(bind: InboxItemKind.notice.rawValue) AND n <= queued - \(bind: queuedPushesPerDevice))
            """
        ).run()
    }

    // MARK: Credentials

    package func updatePushCredentials(
        clientId: String, apns: PushCredentialChange<APNsCredentials>, fcm: PushCredentialChange<FCMServiceAccount>,
        at now: Date
    ) async throws -> Bool {
        let apnsText = try Self.storedCredentials(apns)
        let fcmText = try Self.storedCredentials(fcm)
        let keepAPNs = if case .keep = apns { 1 } else { 0 }
        let keepFCM = if case .keep = fcm { 1 } else { 0 }
        return try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO push_credentials (client_id, apns, fcm, updated_at)
                SELECT client_id, \(bind: apnsText), \(bind: fcmText), \(bind: now.storedSeconds)
                FROM apps WHERE client_id = \(bind: clientId)
                ON CONFLICT (client_id) DO UPDATE SET
                    apns = CASE WHEN \(bind: keepAPNs) = 1 THEN push_credentials.apns ELSE excluded.apns END,
                    fcm = CASE WHEN \(bind: keepFCM) = 1 THEN push_credentials.fcm ELSE excluded.fcm END,
                    updated_at = excluded.updated_at
                RETURNING client_id
                """
            ).first() != nil
        }
    }

    package func pushCredentials(clientId: String) async throws -> PushCredentials {
        try await provider.read { database in
            guard
                let row = try await database.raw(
                    "SELECT apns, fcm FROM push_credentials WHERE client_id = \(bind: clientId)"
                ).first()
            else { return PushCredentials() }
            return PushCredentials(
                apns: try row.optionalString("apns").map { try Self.fromJSON($0, as: APNsCredentials.self) },
                fcm: try row.optionalString("fcm").map { try Self.fromJSON($0, as: FCMServiceAccount.self) })
        }
    }

    private static func storedCredentials<T>(_ change: PushCredentialChange<T>) throws -> String? {
        if case .set(let credentials) = change { try json(credentials) } else { nil }
    }

    // MARK: Registrations

    package func registerPush(_ r: PushRegistration) async throws {
        try await provider.transaction { database in
            // One token reaches at most one device: another device that held it loses its registration.
            try await database.raw(
                """
                DELETE FROM push_registrations
                WHERE provider = \(bind: r.provider.rawValue) AND token = \(bind: r.token) AND device_id <> \(bind: r.deviceId)
                """
            ).run()
            try await database.raw(
                """
                INSERT INTO push_registrations (device_id, provider, token, topic, environment, registered_at)
                VALUES (\(bind: r.deviceId), \(bind: r.provider.rawValue), \(bind: r.token), \(bind: r.topic),
                    \(bind: r.environment?.rawValue), \(bind: r.registeredAt.storedSeconds))
                ON CONFLICT (device_id) DO UPDATE SET provider = excluded.provider, token = excluded.token,
                    topic = excluded.topic, environment = excluded.environment, registered_at = excluded.registered_at
                """
            ).run()
        }
    }

    package func pushRegistration(deviceId: String) async throws -> PushRegistration? {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT device_id, provider, token, topic, environment, registered_at FROM push_registrations
                WHERE device_id = \(bind: deviceId)
                """
            ).first().map(Self.pushRegistration)
        }
    }

    @discardableResult
    package func removePushRegistration(deviceId: String, token: String?) async throws -> Bool {
        let holdingToken: SQLQueryString = token.map { token -> SQLQueryString in " AND token = \(bind: token)" } ?? ""
        return try await provider.write { database in
            try await database.raw(
                "DELETE FROM push_registrations WHERE device_id = \(bind: deviceId)" + holdingToken + " RETURNING device_id"
            ).first() != nil
        }
    }

    private static func pushRegistration(_ row: any SQLRow) throws -> PushRegistration {
        let provider = try row.string("provider")
        guard let known = PushProvider(rawValue: provider) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "push provider \(provider)"))
        }
        return PushRegistration(
            deviceId: try row.string("device_id"), provider: known, token: try row.string("token"),
            topic: try row.optionalString("topic"),
            environment: try row.optionalString("environment").flatMap(APNsEnvironment.init(rawValue:)),
            registeredAt: try row.date("registered_at"))
    }

    // MARK: The outbox

    package var pushOutbox: any OutboxQueue<QueuedPush> {
        SQLOutbox(provider: provider, table: "push_outbox", wanted: Self.wantedPushes)
    }

    /// The claimed pushes still wanted: not expired, the device active and registered, the item still waiting.
    private static func wantedPushes(_ claimed: [String], at now: Date, in database: any SQLDatabase) async throws
        -> [QueuedPush]
    {
        let nowSeconds = now.storedSeconds
        return try await database.raw(
            """
            SELECT o.id, o.device_id, o.kind, o.item_id, o.event, o.expires_at, o.attempts, d.client_id,
                r.provider, r.token, r.topic, r.environment, r.registered_at
            FROM push_outbox o
            JOIN devices d ON d.id = o.device_id AND d.revoked_at IS NULL
            JOIN push_registrations r ON r.device_id = o.device_id
            WHERE o.id IN (\(binds: claimed)) AND o.expires_at > \(bind: nowSeconds) AND CASE o.kind
                WHEN 'confirmation' THEN EXISTS (SELECT 1 FROM confirmations c
                    WHERE c.id = o.item_id AND c.status = 'pending' AND c.expires_at > \(bind: nowSeconds))
                WHEN 'web-login' THEN EXISTS (SELECT 1 FROM web_logins w
                    WHERE w.id = o.item_id AND w.status = 'pending' AND w.expires_at > \(bind: nowSeconds))
                WHEN 'enrollment' THEN EXISTS (SELECT 1 FROM enrollments e
                    WHERE e.id = o.item_id AND e.state = 'pending' AND e.pending_expires_at > \(bind: nowSeconds))
                WHEN 'ciba' THEN EXISTS (SELECT 1 FROM ciba_requests b
                    WHERE b.id = o.item_id AND b.status = 'pending' AND b.expires_at > \(bind: nowSeconds))
                WHEN 'notice' THEN EXISTS (SELECT 1 FROM notices n
                    WHERE n.id = o.item_id AND n.expires_at > \(bind: nowSeconds))
                ELSE FALSE END
            ORDER BY o.queued_ms, o.id
            """
        ).all().map(Self.queuedPush)
    }

    private static func queuedPush(_ row: any SQLRow) throws -> QueuedPush {
        let deviceId = try row.string("device_id")
        var registration = try pushRegistration(row)
        registration.deviceId = deviceId
        return QueuedPush(
            id: try row.string("id"),
            reference: PushReference(
                kind: InboxItemKind(rawValue: try row.string("kind")), id: try row.string("item_id"),
                deviceId: deviceId, event: try row.optionalString("event").map(SecurityEvent.init(rawValue:))),
            clientId: try row.string("client_id"), registration: registration,
            expiresAt: try row.date("expires_at"), attempts: try row.int("attempts"))
    }
}
