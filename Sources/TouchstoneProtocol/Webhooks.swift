import Foundation

/// The type of a webhook event (its body's `type`): one name per event, each spelled once, here.
///
/// A struct rather than an enum, like ``SecurityEvent``: rows written by a later version keep their names.
public struct WebhookEvent: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    // The security notices' events.
    public static let deviceAdded = Self(rawValue: "device.added")
    public static let deviceRemoved = Self(rawValue: "device.removed")
    public static let passwordChanged = Self(rawValue: "password.changed")
    public static let pinChanged = Self(rawValue: "pin.changed")
    public static let recoveryCodesCreated = Self(rawValue: "recovery_codes.created")
    public static let recoveryCodeUsed = Self(rawValue: "recovery_code.used")
    public static let passkeyAdded = Self(rawValue: "passkey.added")
    public static let passkeyRemoved = Self(rawValue: "passkey.removed")
    public static let sessionsEnded = Self(rawValue: "sessions.ended")

    // The others.
    public static let pinLocked = Self(rawValue: "pin.locked")
    public static let deviceCompromised = Self(rawValue: "device.compromised")
    public static let confirmationDecided = Self(rawValue: "confirmation.decided")
    public static let cibaDecided = Self(rawValue: "ciba.decided")
    public static let userReset = Self(rawValue: "user.reset")
    /// Queued for one webhook on request (`POST /admin/v1/webhooks/{id}/test`); nobody subscribes to it.
    public static let test = Self(rawValue: "webhook.test")

    /// Each security notice's event as a webhook event.
    private static let ofNotice: [SecurityEvent: WebhookEvent] = [
        .deviceAdded: .deviceAdded, .deviceRemoved: .deviceRemoved, .passwordChanged: .passwordChanged,
        .pinChanged: .pinChanged, .recoveryCodesCreated: .recoveryCodesCreated, .recoveryCodeUsed: .recoveryCodeUsed,
        .passkeyAdded: .passkeyAdded, .passkeyRemoved: .passkeyRemoved, .sessionsEnded: .sessionsEnded,
    ]

    /// The events a webhook may subscribe to: the security notices' and the five others.
    public static let subscribable: [WebhookEvent] =
        [
            .deviceAdded, .deviceRemoved, .passwordChanged, .pinChanged, .recoveryCodesCreated, .recoveryCodeUsed,
            .passkeyAdded, .passkeyRemoved, .sessionsEnded,
        ] + [.pinLocked, .deviceCompromised, .confirmationDecided, .cibaDecided, .userReset]

    /// The webhook event a security notice's event is; `nil` for one that has none.
    public init?(notice: SecurityEvent) {
        guard let event = Self.ofNotice[notice] else { return nil }
        self = event
    }
}

/// A decision a webhook event reports.
public enum WebhookDecision: String, Sendable, Codable {
    case approve, deny
}

/// What a webhook event tells: whose account, and what applies of the device, the app, the address and the decision.
/// Never a secret, a token or a PIN.
public struct WebhookEventData: Sendable, Equatable, Codable {
    /// The account's user; `nil` only in a `webhook.test` event, which is about nobody.
    public var userId: String?
    public var deviceId: String?
    public var clientId: String?
    /// The address of the request that caused the event.
    public var ip: String?
    public var decision: WebhookDecision?

    public init(
        userId: String?, deviceId: String? = nil, clientId: String? = nil, ip: String? = nil,
        decision: WebhookDecision? = nil
    ) {
        self.userId = userId
        self.deviceId = deviceId
        self.clientId = clientId
        self.ip = ip
        self.decision = decision
    }
}

/// A webhook event's body, `{"type","timestamp","data":{…}}` and no other member; absent data members are left out.
public struct WebhookEventBody: Sendable, Equatable, Codable {
    public var type: WebhookEvent
    /// When it happened, to the second.
    public var timestamp: Date
    public var data: WebhookEventData

    public init(type: WebhookEvent, timestamp: Date, data: WebhookEventData) {
        self.type = type
        self.timestamp = timestamp
        self.data = data
    }

    /// The body's JSON text, as it is stored when the event is queued and sent on every try.
    public var text: String {
        var body = JSONObjectWriter()
        body.member("type", type.rawValue)
        body.member("timestamp", date: Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        body.member("data") { data in
            let members: [(StaticString, String?)] = [
                ("userId", self.data.userId), ("deviceId", self.data.deviceId), ("clientId", self.data.clientId),
                ("ip", self.data.ip), ("decision", self.data.decision?.rawValue),
            ]
            for case (let name, let value?) in members {
                data.member(name, value)
            }
        }
        return String(decoding: body.finished(), as: UTF8.self)
    }
}

/// A webhook's signing secret: 32 random bytes, shown as `whsec_` and their standard base64 with padding (RFC 4648
/// §4), as the Standard Webhooks specification writes them. The bytes are the HMAC-SHA256 key.
public struct WebhookSecret: Sendable, Equatable {
    /// How many random bytes a new secret has.
    public static let byteCount = 32
    static let prefix = "whsec_"

    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The secret written as ``text``; `nil` for any other text.
    public init?(text: String) {
        guard text.hasPrefix(Self.prefix), let bytes = Data(base64Encoded: String(text.dropFirst(Self.prefix.count)))
        else { return nil }
        self.bytes = Array(bytes)
    }

    /// `whsec_` and the bytes in standard base64 with padding.
    public var text: String { Self.prefix + Data(bytes).base64EncodedString() }
}

/// Where a webhook is delivered, as the rules allow: `https`, or `http` on `localhost` or `127.0.0.1` only; a host,
/// no user information and no fragment. Whether the host resolves to a link-local address (``LinkLocal``) is checked
/// where it is resolved: at creation and on the address each delivery connects to.
public struct WebhookTarget: Sendable, Equatable {
    /// The longest URL taken.
    public static let maximumLength = 2_048

    /// Why a URL is not a webhook target (for a refusal's detail).
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The URL as given.
    public let url: String
    /// `https` or `http`.
    public let scheme: String
    /// Lowercased; an IPv6 address without its brackets.
    public let host: String
    /// The URL's port, or the scheme's (443, 80).
    public let port: Int
    /// The path (`/` when empty) and the query, percent-encoded as given: what the request line carries.
    public let path: String

    /// - Throws: ``Refusal`` for a URL that breaks a rule.
    public init(url: String) throws {
        guard url.utf8.count <= Self.maximumLength else {
            throw Refusal(reason: "a webhook URL has at most \(Self.maximumLength) bytes")
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let rawHost = components.host, !rawHost.isEmpty
        else { throw Refusal(reason: "a webhook URL is an absolute http or https URL with a host") }
        let host = rawHost.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        switch scheme {
        case "https": break
        case "http":
            guard host == "localhost" || host == "127.0.0.1" else {
                throw Refusal(reason: "a webhook URL is https (http only on localhost or 127.0.0.1)")
            }
        default: throw Refusal(reason: "a webhook URL is https (http only on localhost or 127.0.0.1)")
        }
        guard components.user == nil, components.password == nil else {
            throw Refusal(reason: "a webhook URL has no user information")
        }
        guard components.fragment == nil else { throw Refusal(reason: "a webhook URL has no fragment") }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        self.url = url
        self.scheme = scheme
        self.host = host
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
        self.path = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}

/// Link-local addresses (IPv4 169.254.0.0/16, IPv6 fe80::/10, and the IPv4 ones mapped into IPv6 as
/// `::ffff:169.254.x.x`): where cloud metadata services listen, never a webhook's target.
public enum LinkLocal {
    /// Whether `address` (4 bytes of IPv4 or 16 of IPv6, in network order) is link-local.
    public static func contains(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4:
            return address[0] == 169 && address[1] == 254
        case 16:
            if address[0] == 0xFE && address[1] & 0xC0 == 0x80 { return true }
            let isMapped = address[0..<10].allSatisfy { $0 == 0 } && address[10] == 0xFF && address[11] == 0xFF
            return isMapped && contains(Array(address[12..<16]))
        default:
            return false
        }
    }
}
