import TouchstoneProtocol

/// How an audited action ended: `ok`, `approval_pending`, `unknown_user`, `suppressed`, or the
/// code of the problem that refused it. What the `audit_events.outcome` column holds.
public struct AuditOutcome: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// The action was carried out.
    public static let ok = Self(rawValue: "ok")
    /// The new device waits for another device's approval.
    public static let approvalPending = Self(rawValue: "approval_pending")
    /// A request for a user who does not exist, answered as for one who does (nothing delivered).
    public static let unknownUser = Self(rawValue: "unknown_user")
    /// A request answered as usual but not delivered to any device (a limit on approvals).
    public static let suppressed = Self(rawValue: "suppressed")

    /// Refused with `code`.
    public static func refused(_ code: ProblemCode) -> Self {
        Self(rawValue: code.rawValue)
    }
}
