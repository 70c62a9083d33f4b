import Foundation

/// Security notices in devices' inboxes. They are written by the store method of their event, in its transaction;
/// here they are read and dismissed. Every method is atomic on its own.
package protocol NoticeStore: Sendable {
    /// The device's notices that have not expired, oldest first.
    func notices(deviceId: String, now: Date) async throws -> [NoticeRecord]
    /// The account's own copies of its unexpired notices (those the web page lists), oldest first.
    func accountNotices(userId: String, now: Date) async throws -> [NoticeRecord]
    /// Deletes one of the device's unexpired notices; `false` when it has no such notice.
    func dismissNotice(id: String, deviceId: String, now: Date) async throws -> Bool
}
