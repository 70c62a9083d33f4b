import Foundation
import TouchstoneProtocol

/// A security notice to leave, in the transaction of its event, in the inbox of every active device of the user but
/// the one whose session acted.
package struct NoticeDraft: Sendable, Equatable {
    package var userId: String
    package var event: SecurityEvent
    package var detail: NoticeDetail
    /// The device whose session acted (or that the event adds): it gets no notice. `nil` when every device does (a web
    /// session, an administrator).
    package var exceptDeviceId: String?
    package var at: Date
    package var expiresAt: Date

    package init(
        userId: String, event: SecurityEvent, detail: NoticeDetail, exceptDeviceId: String?, at: Date, expiresAt: Date
    ) {
        self.userId = userId
        self.event = event
        self.detail = detail
        self.exceptDeviceId = exceptDeviceId
        self.at = at
        self.expiresAt = expiresAt
    }
}
