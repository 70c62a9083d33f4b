import Foundation
import SQLKit
import TouchstoneProtocol

extension SQLStore {
    /// Leaves each notice in the inbox of every active device of its user but the one it excepts, each with an id of
    /// its own, and the account's copy, and queues its webhook event, inside the caller's transaction (that of the
    /// event).
    ///
    /// The ids are the store's own (``RecordID/random()``), not drawn from the services' random source: how many rows
    /// a notice becomes is known only here, from the devices this transaction reads, and a notice id is not a secret
    /// (it names the notice to dismiss, behind the device's own proof).
    static func insertNotices(_ notices: [NoticeDraft], in database: any SQLDatabase) async throws {
        for notice in notices {
            let detail = try json(notice.detail)
            let recipients = try await database.raw(
                """
                SELECT id FROM devices
                WHERE user_id = \(bind: notice.userId) AND revoked_at IS NULL AND id <> \(bind: notice.exceptDeviceId ?? "")
                ORDER BY id
                """
            ).all().map { Optional(try $0.string("id")) }
            for deviceId in recipients + [nil] {
                let id = RecordID.random()
                try await database.raw(
                    """
                    INSERT INTO notices (id, device_id, user_id, event, detail, created_at, expires_at, seq)
                    SELECT \(bind: id), \(bind: deviceId), \(bind: notice.userId),
                        \(bind: notice.event.rawValue), \(bind: detail), \(bind: notice.at.storedSeconds),
                        \(bind: notice.expiresAt.storedSeconds), COALESCE(MAX(seq), 0) + 1
                    FROM notices
                    """
                ).run()
                if let deviceId {
                    try await queueNoticePush(noticeId: id, event: notice.event, deviceId: deviceId, at: notice.at, in: database)
                }
            }
            if !recipients.isEmpty { try await dropOldestNoticePushes(ofDevicesOf: notice.userId, in: database) }
            if let event = WebhookEvent(notice: notice.event) {
                let data = WebhookEventData(
                    userId: notice.userId, deviceId: notice.detail.deviceId,
                    clientId: try await clientId(ofDevice: notice.detail.deviceId, in: database), ip: notice.detail.ip)
                try await queueWebhookEvent(event, data, at: notice.at, in: database)
            }
        }
    }

    package func notices(deviceId: String, now: Date) async throws -> [NoticeRecord] {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT id, device_id, user_id, event, detail, created_at, expires_at FROM notices
                WHERE device_id = \(bind: deviceId) AND expires_at > \(bind: now.storedSeconds)
                ORDER BY seq, id
                """
            ).all().map(Self.noticeRecord)
        }
    }

    package func accountNotices(userId: String, now: Date) async throws -> [NoticeRecord] {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT id, device_id, user_id, event, detail, created_at, expires_at FROM notices
                WHERE user_id = \(bind: userId) AND device_id IS NULL AND expires_at > \(bind: now.storedSeconds)
                ORDER BY seq, id
                """
            ).all().map(Self.noticeRecord)
        }
    }

    private static func noticeRecord(_ row: any SQLRow) throws -> NoticeRecord {
        NoticeRecord(
            id: try row.string("id"), deviceId: try row.optionalString("device_id"), userId: try row.string("user_id"),
            event: SecurityEvent(rawValue: try row.string("event")),
            detail: try fromJSON(try row.string("detail"), as: NoticeDetail.self),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
    }

    package func dismissNotice(id: String, deviceId: String, now: Date) async throws -> Bool {
        try await provider.write { database in
            try await database.raw(
                """
                DELETE FROM notices
                WHERE id = \(bind: id) AND device_id = \(bind: deviceId) AND expires_at > \(bind: now.storedSeconds)
                RETURNING id
                """
            ).first() != nil
        }
    }
}
