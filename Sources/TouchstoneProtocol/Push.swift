import Foundation

/// The push service a device registers with.
public enum PushProvider: String, Codable, Sendable, CaseIterable {
    /// Apple Push Notification service (iOS, iPadOS, macOS).
    case apns
    /// Firebase Cloud Messaging HTTP v1 (Android clients of the protocol).
    case fcm
}

/// Which APNs host a device token belongs to: tokens of development builds work only with the sandbox.
public enum APNsEnvironment: String, Codable, Sendable, CaseIterable {
    case production
    case development
}

/// `PUT /v1/devices/{deviceId}/push`: `{provider:"apns", token, topic, environment}` or `{provider:"fcm", token}`.
public struct PushRegistrationRequest: Codable, Sendable, Equatable {
    public var provider: PushProvider
    /// APNs: the device token as hex digits; FCM: the registration token.
    public var token: String
    /// APNs only: the bundle id the push is addressed to (`apns-topic`).
    public var topic: String?
    /// APNs only.
    public var environment: APNsEnvironment?

    public init(provider: PushProvider, token: String, topic: String? = nil, environment: APNsEnvironment? = nil) {
        self.provider = provider
        self.token = token
        self.topic = topic
        self.environment = environment
    }
}

/// `GET /v1/devices/{deviceId}/push`: the device's registration, without its token.
public struct PushRegistrationSummary: Codable, Sendable, Equatable {
    public var provider: PushProvider
    public var topic: String?
    public var environment: APNsEnvironment?
    public var registeredAt: Date

    public init(provider: PushProvider, topic: String?, environment: APNsEnvironment?, registeredAt: Date) {
        self.provider = provider
        self.topic = topic
        self.environment = environment
        self.registeredAt = registeredAt
    }
}

/// What a push names, and nothing more: the item's kind and id, the device it is for and, for a notice, the event.
/// APNs carries it as the payload's `touchstone` dictionary (`v` a number), FCM as the data message's strings
/// (`touchstone_v`, `kind`, `id`, `deviceId`, `event`).
public struct PushReference: Sendable, Equatable {
    /// The version of this shape: 1.
    public static let version = 1

    public var kind: InboxItemKind
    public var id: String
    public var deviceId: String
    public var event: SecurityEvent?

    public init(kind: InboxItemKind, id: String, deviceId: String, event: SecurityEvent? = nil) {
        self.kind = kind
        self.id = id
        self.deviceId = deviceId
        self.event = event
    }

    /// Reads a notification's payload as the app receives it: APNs' `userInfo` (with its `touchstone` dictionary) or
    /// FCM's `data` (string values). `nil` when it is not a Touchstone push of a version this SDK reads.
    public init?(payload: [AnyHashable: Any]) {
        let fields: [AnyHashable: Any]
        let version: Int?
        if let apns = payload["touchstone"] as? [AnyHashable: Any] {
            fields = apns
            version = Self.integer(apns["v"])
        } else {
            fields = payload
            version = (payload["touchstone_v"] as? String).flatMap { Int($0) }
        }
        guard version == Self.version, let kind = fields["kind"] as? String, let id = fields["id"] as? String,
            let deviceId = fields["deviceId"] as? String, !id.isEmpty, !deviceId.isEmpty
        else { return nil }
        self.init(
            kind: InboxItemKind(rawValue: kind), id: id, deviceId: deviceId,
            event: (fields["event"] as? String).map(SecurityEvent.init(rawValue:)))
    }

    /// A JSON integer as `userInfo` holds it (a Foundation number, or Swift's `Int`); `nil` for a fraction or a
    /// Boolean, which Foundation also holds as numbers (of type `c`).
    private static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return Int(exactly: number.doubleValue)
    }
}
