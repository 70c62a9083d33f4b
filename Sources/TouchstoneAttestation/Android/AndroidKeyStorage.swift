/// Where an accepted Android key lives.
public enum AndroidKeyStorage: Sendable, Hashable {
    /// A StrongBox secure element: both the key and its attestation are at StrongBox level.
    case strongBox
    /// A Trusted Execution Environment (or a mix of TEE and StrongBox levels).
    case trustedEnvironment
}
