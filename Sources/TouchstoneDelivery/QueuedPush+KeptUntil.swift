import Foundation
import TouchstoneStorage

extension QueuedPush {
    /// How long the push services keep a notice for a phone that is off: a day from each try.
    static let noticeKeptFor: TimeInterval = 86_400

    /// Until when APNs (`apns-expiration`) and FCM (`ttl`) keep trying to reach the device: the item's expiry, and
    /// for a notice one day after this try.
    func keptUntil(triedAt now: Date) -> Date {
        reference.kind == .notice ? now.addingTimeInterval(Self.noticeKeptFor) : expiresAt
    }
}
