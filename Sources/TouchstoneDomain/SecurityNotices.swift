import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// The security notices that events leave in the inbox of the user's other devices (PROTOCOL.md "Security notices").
/// Each store method of an event takes its notices and writes them in the event's transaction: no event without its
/// notice, no notice without its event.
package enum SecurityNotices {
    /// Notices expire after 30 days.
    package static let lifetime: TimeInterval = 30 * 86_400

    /// The notice of `event` for every active device of the user but `actingDevice`.
    /// - Parameters:
    ///   - device: the device the event concerns (added, removed, its PIN changed, its session ended), or the one it
    ///     was done from; its id and name go in the detail.
    ///   - passkeyName: the passkey the event concerns.
    ///   - actingDevice: the device whose session acted (or that the event adds), which gets no notice; `nil` when
    ///     every device does (a web session, an administrator).
    ///   - ip: the address of the request that caused the event; `nil` for an administrator.
    /// - ⚠️ Never put a secret in a notice: the detail holds names, ids and an address only.
    package static func draft(
        _ event: SecurityEvent, userId: String, device: DeviceRecord? = nil, passkeyName: String? = nil,
        actingDevice: String?, ip: String?, at: Date
    ) -> NoticeDraft {
        NoticeDraft(
            userId: userId, event: event,
            detail: NoticeDetail(deviceId: device?.id, deviceName: device?.name, passkeyName: passkeyName, ip: ip),
            exceptDeviceId: actingDevice, at: at, expiresAt: at + lifetime)
    }
}
