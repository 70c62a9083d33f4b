/// An `amr` value: how a session's user proved who they are. Each method is spelled once, here.
///
/// A struct rather than an enum, like ``ProblemCode``: methods added by later versions never break clients.
public struct AuthenticationMethod: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public var description: String { rawValue }

    // Touchstone's sessions (PROTOCOL "Accounts, enrolment, login").
    /// A fingerprint unlocked the device's biometric key.
    public static let biometric = Self(rawValue: "bio")
    /// The device key signed, with the app PIN.
    public static let pin = Self(rawValue: "pin")
    /// The account's password.
    public static let password = Self(rawValue: "pwd")
    /// A WebAuthn passkey.
    public static let passkey = Self(rawValue: "passkey")
    /// A key of a legacy TouchIDAuth client.
    public static let legacy = Self(rawValue: "legacy")

    // What ID tokens say of a phone approval or a passkey (RFC 8176).
    /// A hardware-secured key.
    public static let hardwareKey = Self(rawValue: "hwk")
    /// A fingerprint.
    public static let fingerprint = Self(rawValue: "fpt")
    /// More than one factor.
    public static let multipleFactors = Self(rawValue: "mfa")
}
