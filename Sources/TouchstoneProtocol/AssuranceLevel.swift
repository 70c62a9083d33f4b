/// An `acr` value: the authentication assurance level of a session (NIST SP 800-63B). Each level is spelled once, here.
public struct AssuranceLevel: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
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

    /// One factor: the password alone.
    public static let aal1 = Self(rawValue: "aal1")
    /// Two factors: a device key with a fingerprint or the PIN, or a passkey.
    public static let aal2 = Self(rawValue: "aal2")

    /// The levels Touchstone issues, weakest first.
    public static let all: [Self] = [.aal1, .aal2]
}
