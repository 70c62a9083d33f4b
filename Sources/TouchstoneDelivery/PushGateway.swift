import Foundation
import TouchstoneStorage

/// What a push service answered one try, as the outbox acts on it.
package enum PushAnswer: Sendable, Equatable {
    /// 200: the service took the push.
    case delivered
    /// The service says the token is gone or not for this app (APNs 400 `BadDeviceToken`/`DeviceTokenNotForTopic`,
    /// any 410; FCM 404, or 403 with `UNREGISTERED`/`SENDER_ID_MISMATCH`): the registration is removed.
    case unregistered(reason: String)
    /// 429, 5xx or no answer in time: try again, not before `retryAfter` when the service named one.
    case retry(reason: String, retryAfter: Duration?)
    /// Any other answer: given up. `reason` is the service's `reason` or `error.status`, never the token.
    case failed(reason: String)
}

/// Sends one push to the service its registration names, with the app's credentials.
package protocol PushGateway: Sendable {
    func send(_ push: QueuedPush, credentials: PushCredentials) async -> PushAnswer
}
