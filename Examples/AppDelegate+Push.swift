import Foundation
import TouchstoneClient
import TouchstoneProtocol
import UIKit
import UserNotifications

/// The app's side of Touchstone's pushes: it hands the SDK its APNs token, and turns a tapped notification into the
/// inbox item it names.
final class AppDelegate: NSObject, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    /// The app's client (``NotificationService`` makes its own, on the same access group).
    let client = NotificationService.makeClient()
    /// Shows an item and lets the user approve or deny it, as for an item from `client.inbox()`.
    var present: (InboxEntry) -> Void = { _ in }

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        UNUserNotificationCenter.current().delegate = self
        application.registerForRemoteNotifications()
        return true
    }

    /// Every launch may bring a new token: register it each time (it replaces the device's earlier one).
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        #if DEBUG
            let environment = APNsEnvironment.development
        #else
            let environment = APNsEnvironment.production
        #endif
        Task {
            try await client?.registerPush(
                .apns(deviceToken: deviceToken, topic: NotificationService.clientID, environment: environment))
        }
    }

    /// The user tapped a notification: show the item it names, if it still waits for this device. `nonisolated`:
    /// UserNotifications calls it off the main actor with values that are not Sendable.
    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
    ) async {
        guard let client, let entry = try? await client.inboxItem(fromPush: response.notification.request.content.userInfo)
        else { return }
        await MainActor.run { present(entry) }
    }
}
