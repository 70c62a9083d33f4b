import Foundation
import TouchstoneProtocol

/// Where the server sends this device's pushes: ``TouchstoneClient/registerPush(_:)``.
public enum PushDestination: Sendable, Equatable {
    /// An APNs device token as the app receives it (`application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`),
    /// the app's bundle id (the `apns-topic`, one of those the app's credentials allow), and the APNs host the token
    /// belongs to: `.development` for a build signed for development, `.production` otherwise.
    case apns(deviceToken: Data, topic: String, environment: APNsEnvironment)
    /// A Firebase Cloud Messaging registration token (an Android client of the protocol).
    case fcm(token: String)

    /// The `PUT /v1/devices/{deviceId}/push` body; an APNs token as lowercase hex digits.
    var request: PushRegistrationRequest {
        switch self {
        case .apns(let deviceToken, let topic, let environment):
            let hex = deviceToken.map { String(format: "%02x", $0) }.joined()
            return PushRegistrationRequest(provider: .apns, token: hex, topic: topic, environment: environment)
        case .fcm(let token):
            return PushRegistrationRequest(provider: .fcm, token: token)
        }
    }
}

extension TouchstoneClient {
    /// Registers where this device's pushes go, replacing its earlier registration. From then on every item that
    /// reaches the device's inbox is announced by a push that names it and nothing more (``inboxItem(fromPush:)``).
    /// Call it whenever the platform hands the app a token: tokens change.
    /// - Throws: ``TouchstoneError`` `server` (`push_not_configured`) when the app has no credentials for that push
    ///   service (or not that topic) on the server, (`invalid_request`) for a malformed token; `notRegistered`.
    public func registerPush(_ destination: PushDestination) async throws {
        try await sendAsDevice(.registerPush, body: destination.request)
    }

    /// Where this device's pushes go, without the token; `nil` when it has no push registration.
    public func pushRegistration() async throws -> PushRegistrationSummary? {
        do {
            return try decode(PushRegistrationSummary.self, try await sendAsDevice(.pushRegistration).body)
        } catch let error as TouchstoneError where error.serverCode == .notFound {
            return nil
        }
    }

    /// Stops pushes to this device; the inbox still has its items.
    public func removePushRegistration() async throws {
        try await sendAsDevice(.removePushRegistration)
    }

    /// The inbox item a push announces, fetched from the server: a request to approve or deny (as if it had come from
    /// ``inbox(waitSeconds:)``) or a security notice.
    /// - Parameter userInfo: the notification's payload: APNs' `userInfo`, or FCM's data message.
    /// - Returns: `nil` when the payload is not a Touchstone push, names another device than this one, or its item
    ///   no longer waits (decided, expired or dismissed).
    /// - Throws: ``TouchstoneError`` `notRegistered`, and what a failed fetch throws.
    /// - ⚠️ Show the user what the returned item says, never what a push says: a push names an item and nothing more,
    ///   and only the server's answer is checked against this device.
    ///
    /// It runs on the caller's actor (`nonisolated(nonsending)`), so a payload the main actor holds need not be sent.
    nonisolated(nonsending) public func inboxItem(fromPush userInfo: [AnyHashable: Any]) async throws -> InboxEntry? {
        guard let reference = PushReference(payload: userInfo),
            try await requireRegistration().deviceId == reference.deviceId
        else { return nil }
        do {
            return try await inboxItem(id: reference.id)
        } catch let error as TouchstoneError where error.serverCode == .notFound {
            return nil
        }
    }

    /// One item of this device's inbox, a request or a notice.
    /// - Throws: ``TouchstoneError`` `server` (`not_found`) when the device has no such item waiting (unknown,
    ///   decided, expired, dismissed, or another device's).
    public func inboxItem(id: String) async throws -> InboxEntry {
        try decode(InboxEntry.self, try await sendAsDevice(.inboxItem, id).body)
    }

    /// Sends a request about this device, authorized by its own request token (`Authorization: TouchstoneDevice`);
    /// `values` fill the endpoint's parameters after the device id.
    @discardableResult
    private func sendAsDevice(_ endpoint: Endpoint, _ values: String..., body: (any Encodable)? = nil) async throws
        -> TransportResponse
    {
        let registration = try await requireRegistration()
        let path = endpoint.path(values: [registration.deviceId] + values)
        let proof = try await signedRequest(endpoint.method, path, by: registration)
        return try await send(
            endpoint.method, path, body: body, headers: ["Authorization": "TouchstoneDevice \(proof)"])
    }
}
