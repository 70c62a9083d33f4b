import Foundation
import TouchstoneProtocol

/// A security notice in one device's inbox, or the account's copy of it.
package struct NoticeRecord: Sendable, Equatable {
    /// This device's id of the notice.
    package var id: String
    /// `nil` for the account's copy.
    package var deviceId: String?
    package var userId: String
    package var event: SecurityEvent
    package var detail: NoticeDetail
    package var createdAt: Date
    package var expiresAt: Date
}
