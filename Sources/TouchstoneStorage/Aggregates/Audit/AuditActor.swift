/// Who acted in an audited event: its kind, and for some kinds which one (an admin token's name).
///
/// The `audit_events` columns hold it as `actor` (the kind's wire name; what rows written before the other members
/// existed hold alone), `actor_id` and `actor_name`, so that old rows read as the kind with neither.
public struct AuditActor: Sendable, Equatable, Codable {
    /// A kind of actor, by its wire name, each spelled once, here.
    ///
    /// A struct rather than an enum, like ``AuditEventType``: rows written by a later version keep their kind.
    public struct Kind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// A user with a password, a passkey or a session without a device.
        public static let user = Self(rawValue: "user")
        /// A device with its key or PIN.
        public static let device = Self(rawValue: "device")
        /// A relying service with an API key.
        public static let apiKey = Self(rawValue: "api_key")
        /// An administrator at the command line (`touchstone admin`).
        public static let admin = Self(rawValue: "admin")
        /// A caller of the admin API with an admin token (``AuditActor/name`` is the token's).
        public static let adminToken = Self(rawValue: "admin_token")
    }

    public var kind: Kind
    /// The acting thing's id, when the kind has one worth keeping.
    public var id: String?
    /// The acting thing's name: an admin token's.
    public var name: String?

    public init(kind: Kind, id: String? = nil, name: String? = nil) {
        self.kind = kind
        self.id = id
        self.name = name
    }

    public static let user = AuditActor(kind: .user)
    public static let device = AuditActor(kind: .device)
    public static let apiKey = AuditActor(kind: .apiKey)
    /// `touchstone admin` at the command line.
    public static let admin = AuditActor(kind: .admin)

    /// The admin API, called with the admin token named `name`.
    public static func adminToken(name: String) -> AuditActor {
        AuditActor(kind: .adminToken, name: name)
    }

    private enum CodingKeys: String, CodingKey {
        case kind, id, name
    }

    /// `{kind, id?, name?}`: absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(name, forKey: .name)
    }
}
