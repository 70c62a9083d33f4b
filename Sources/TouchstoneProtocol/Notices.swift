import Foundation

/// What a security notice tells the user happened to the account.
public struct SecurityEvent: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let deviceAdded = Self(rawValue: "device_added")
    public static let deviceRemoved = Self(rawValue: "device_removed")
    public static let passwordChanged = Self(rawValue: "password_changed")
    public static let pinChanged = Self(rawValue: "pin_changed")
    public static let recoveryCodesCreated = Self(rawValue: "recovery_codes_created")
    public static let recoveryCodeUsed = Self(rawValue: "recovery_code_used")
    public static let passkeyAdded = Self(rawValue: "passkey_added")
    public static let passkeyRemoved = Self(rawValue: "passkey_removed")
    /// A session ended by another one, or by an administrator.
    public static let sessionsEnded = Self(rawValue: "sessions_ended")
}

/// What applies of the device, passkey and address an event concerns; never a secret.
public struct NoticeDetail: Codable, Sendable, Equatable {
    public var deviceId: String?
    public var deviceName: String?
    public var passkeyName: String?
    /// The address of the request that caused the event.
    public var ip: String?

    public init(deviceId: String? = nil, deviceName: String? = nil, passkeyName: String? = nil, ip: String? = nil) {
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.passkeyName = passkeyName
        self.ip = ip
    }
}

/// An inbox item `{kind:"notice", id, event, at, detail}`: something happened to the account. It needs no decision
/// and has no challenge; the device dismisses it (`DELETE /v1/devices/{deviceId}/inbox/{id}`), or it expires after
/// 30 days.
public struct SecurityNotice: Codable, Sendable, Equatable {
    /// This device's id of the notice (each device has its own).
    public var id: String
    public var event: SecurityEvent
    public var at: Date
    public var detail: NoticeDetail

    public init(id: String, event: SecurityEvent, at: Date, detail: NoticeDetail) {
        self.id = id
        self.event = event
        self.at = at
        self.detail = detail
    }

    private enum CodingKeys: String, CodingKey {
        case kind, id, event, at, detail
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(InboxItemKind.self, forKey: .kind)
        guard kind == .notice else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "not a notice")
        }
        id = try container.decode(String.self, forKey: .id)
        event = try container.decode(SecurityEvent.self, forKey: .event)
        at = try container.decode(Date.self, forKey: .at)
        detail = try container.decode(NoticeDetail.self, forKey: .detail)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(InboxItemKind.notice, forKey: .kind)
        try container.encode(id, forKey: .id)
        try container.encode(event, forKey: .event)
        try container.encode(at, forKey: .at)
        try container.encode(detail, forKey: .detail)
    }
}

/// One item of a device's inbox: a request waiting for its decision, or a security notice.
public enum InboxEntry: Codable, Sendable, Equatable {
    /// A confirmation, web login or new device to approve or deny.
    case request(InboxItem)
    case notice(SecurityNotice)

    public var id: String {
        switch self {
        case .request(let item): item.id
        case .notice(let notice): notice.id
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind
    }

    /// A notice by its `kind`; any other kind as a request.
    public init(from decoder: any Decoder) throws {
        let kind = try decoder.container(keyedBy: CodingKeys.self).decode(InboxItemKind.self, forKey: .kind)
        self = kind == .notice ? .notice(try SecurityNotice(from: decoder)) : .request(try InboxItem(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .request(let item): try item.encode(to: encoder)
        case .notice(let notice): try notice.encode(to: encoder)
        }
    }
}

/// `GET /v1/account/notices` answer: the account's security notices of the last 30 days, as the web page lists them.
public struct AccountNotices: Codable, Sendable, Equatable {
    public var notices: [SecurityNotice]

    public init(notices: [SecurityNotice]) {
        self.notices = notices
    }
}
