/// `userVerification` in options and authenticator selection (WebAuthn §5.8.6).
public enum UserVerificationRequirement: String, Sendable, Hashable, Codable {
    case required
    case preferred
    case discouraged
}
