import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// An FCM HTTP v1 data message: `{"message":{"token","data":{"touchstone_v":"1","kind","id","deviceId"(,"event")},
/// "android":{"priority","ttl","collapse_key"}}}` — no `notification` member: the app shows what it fetches.
struct FCMMessage: Encodable {
    struct Message: Encodable {
        let token: String
        let data: [String: String]
        let android: Android
    }

    struct Android: Encodable {
        let priority: String
        let ttl: String
        let collapseKey: String

        private enum CodingKeys: String, CodingKey {
            case priority, ttl, collapseKey = "collapse_key"
        }
    }

    let message: Message

    /// The message for `push`, sent at `now`: `HIGH` priority (`NORMAL` for notices), kept by FCM for the whole seconds
    /// left until the item expires (a notice: a day, ``QueuedPush/keptUntil(triedAt:)``).
    init(_ push: QueuedPush, now: Date) {
        let reference = push.reference
        var data = [
            "touchstone_v": String(PushReference.version), "kind": reference.kind.rawValue, "id": reference.id,
            "deviceId": reference.deviceId,
        ]
        data["event"] = reference.event?.rawValue
        let seconds = max(0, Int64(push.keptUntil(triedAt: now).timeIntervalSince(now).rounded(.down)))
        message = Message(
            token: push.registration.token, data: data,
            android: Android(
                priority: reference.kind == .notice ? "NORMAL" : "HIGH", ttl: "\(seconds)s", collapseKey: reference.id))
    }
}
