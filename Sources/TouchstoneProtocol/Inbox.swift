import Foundation

/// What an inbox item asks for.
public struct InboxItemKind: RawRepresentable, Codable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let confirmation = Self(rawValue: "confirmation")
    public static let webLogin = Self(rawValue: "web-login")
    public static let enrollment = Self(rawValue: "enrollment")
    /// An OpenID CIBA request: a client asks the user to approve what its binding message and payment say.
    public static let ciba = Self(rawValue: "ciba")
    /// A security notice (``SecurityNotice``): nothing to decide.
    public static let notice = Self(rawValue: "notice")
}

/// One request waiting in a device's inbox (`GET /v1/devices/{deviceId}/inbox`) for the device's decision. The inbox
/// also holds security notices, which are not requests (``InboxEntry``).
public struct InboxItem: Codable, Sendable, Equatable {
    public var kind: InboxItemKind
    public var id: String
    public var clientId: String
    public var publisher: String
    /// The nonce the decision signs.
    public var challenge: String
    public var expiresAt: Date
    // confirmation
    public var text: String?
    public var amount: String?
    public var currency: String?
    public var payee: String?
    // web-login
    public var browser: String?
    public var numbers: [Int]?
    // web-login and enrollment
    public var ip: String?
    public var requestedAt: Date?
    // enrollment
    public var name: String?
    public var model: String?
    // ciba
    /// The asking app's name (its client id when it has none).
    public var clientName: String?
    /// The scopes asked for, space-separated.
    public var scope: String?
    public var bindingMessage: String?
    /// The request's `authorization_details` as sent (RFC 9396): one `payment_initiation` object.
    public var authorizationDetails: JSONValue?
    /// The transaction hash the decision commits to (PROTOCOL.md "Decoupled authorization").
    public var txn: String?

    public init(
        kind: InboxItemKind, id: String, clientId: String, publisher: String, challenge: String, expiresAt: Date,
        text: String? = nil, amount: String? = nil, currency: String? = nil, payee: String? = nil,
        browser: String? = nil, numbers: [Int]? = nil, ip: String? = nil, requestedAt: Date? = nil,
        name: String? = nil, model: String? = nil, clientName: String? = nil, scope: String? = nil,
        bindingMessage: String? = nil, authorizationDetails: JSONValue? = nil, txn: String? = nil
    ) {
        self.kind = kind
        self.id = id
        self.clientId = clientId
        self.publisher = publisher
        self.challenge = challenge
        self.expiresAt = expiresAt
        self.text = text
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.browser = browser
        self.numbers = numbers
        self.ip = ip
        self.requestedAt = requestedAt
        self.name = name
        self.model = model
        self.clientName = clientName
        self.scope = scope
        self.bindingMessage = bindingMessage
        self.authorizationDetails = authorizationDetails
        self.txn = txn
    }
}

/// `GET /v1/devices/{deviceId}/inbox` answer: `{items:[…]}`, requests and security notices in one array.
public struct Inbox: Codable, Sendable {
    /// Every item, as the server lists it.
    public var entries: [InboxEntry]

    /// The requests among the items (what waits for a decision); notices are in ``notices``.
    public var items: [InboxItem] {
        entries.compactMap { if case .request(let item) = $0 { item } else { nil } }
    }

    /// The security notices among the items.
    public var notices: [SecurityNotice] {
        entries.compactMap { if case .notice(let notice) = $0 { notice } else { nil } }
    }

    public init(entries: [InboxEntry]) {
        self.entries = entries
    }

    /// An inbox of requests only.
    public init(items: [InboxItem]) {
        self.entries = items.map(InboxEntry.request)
    }

    private enum CodingKeys: String, CodingKey {
        case items
    }

    public init(from decoder: any Decoder) throws {
        entries = try decoder.container(keyedBy: CodingKeys.self).decode([InboxEntry].self, forKey: .items)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .items)
    }
}

/// `POST /v1/{confirmations|web-logins|enrollments}/{id}/decision` body.
public struct DecisionRequest: Codable, Sendable {
    /// A `touchstone-decision+jwt`.
    public var assertion: String

    public init(assertion: String) {
        self.assertion = assertion
    }
}

/// A decision's answer.
public struct DecisionRecorded: Codable, Sendable {
    public var status: DecisionStatus

    public init(status: DecisionStatus) {
        self.status = status
    }
}

/// `touchstone-decision+jwt`: approves or denies an inbox item; biometric key, or device key with `pin`.
public struct DecisionClaims: DeviceTokenClaims, Equatable {
    public static let tokenType = DeviceTokenType.decision
    public var iss: String
    public var aud: String
    public var iat: Int64
    public var exp: Int64
    /// The item's challenge.
    public var nonce: String
    /// `approve` or `deny`.
    public var decision: String
    /// The transaction hash (confirmations and CIBA requests).
    public var txn: String?
    /// The number picked (web logins).
    public var number: Int?
    public var pin: String?

    public init(
        iss: String, aud: String, iat: Int64, exp: Int64, nonce: String, decision: String, txn: String? = nil,
        number: Int? = nil, pin: String? = nil
    ) {
        self.iss = iss
        self.aud = aud
        self.iat = iat
        self.exp = exp
        self.nonce = nonce
        self.decision = decision
        self.txn = txn
        self.number = number
        self.pin = pin
    }
}
