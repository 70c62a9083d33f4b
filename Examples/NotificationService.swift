import Foundation
import TouchstoneClient
import TouchstoneProtocol
import UserNotifications

/// An iOS app's Notification Service Extension for Touchstone's pushes (its target's `NSExtensionPrincipalClass`).
///
/// A push names an inbox item and nothing more, under a fixed title and body. The extension fetches the item from the
/// server and writes the body from the server's answer only, never from the push. When it cannot (the phone is locked,
/// so the keychain keeps the device key; the item was decided meanwhile; no network), the fixed text stays.
final class NotificationService: UNNotificationServiceExtension {
    /// The app's bundle id, which is also its client id and its APNs topic.
    static let clientID = "com.example.pay"

    /// The client the app registered, on the keychain access group the app and this extension share (in both
    /// targets' entitlements).
    static func makeClient() -> TouchstoneClient? {
        URL(string: "https://login.example.com").map { server in
            TouchstoneClient(
                server: server, clientID: clientID, platform: .apple(accessGroup: "TEAMID.com.example.shared"))
        }
    }

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        // UserNotifications takes the one call of `contentHandler` on any thread, and reads `request` only; its
        // declarations do not say so to Swift (neither is Sendable), hence `nonisolated(unsafe)`.
        nonisolated(unsafe) let deliver = contentHandler
        nonisolated(unsafe) let request = request
        Task { deliver(await Self.content(for: request)) }
    }

    /// The notification as it is shown: its fixed text, or a body from the server's item.
    static func content(for request: UNNotificationRequest) async -> UNNotificationContent {
        guard let client = makeClient(), let content = request.content.mutableCopy() as? UNMutableNotificationContent,
            let entry = try? await client.inboxItem(fromPush: request.content.userInfo)
        else { return request.content }
        content.body = body(of: entry)
        return content
    }

    /// One line about the item, from what the server returned.
    static func body(of entry: InboxEntry) -> String {
        switch entry {
        case .request(let item):
            switch item.kind {
            case .confirmation:
                "Confirm \(item.amount ?? "") \(item.currency ?? "") to \(item.payee ?? "")"
            case .webLogin:
                "Sign-in from \(item.browser ?? "a browser"): open the app and pick the number the browser shows"
            case .enrollment:
                "\(item.name ?? "A new device") wants to join your account"
            default:
                "A request waits for your answer"
            }
        case .notice(let notice):
            "Security notice: \(notice.event.rawValue.replacingOccurrences(of: "_", with: " "))"
        }
    }
}
