/// What the bootloader found when it checked the operating system (`VerifiedBootState` of `RootOfTrust`).
public enum VerifiedBootState: Int, Sendable, Hashable {
    /// Booted an image signed with the OEM's key.
    case verified = 0
    /// Booted an image signed with a key the user installed.
    case selfSigned = 1
    /// Verification is off (an unlocked bootloader).
    case unverified = 2
    /// Verification failed.
    case failed = 3
}
