/// Where Android says a key or its attestation lives (`SecurityLevel` of the key attestation schema).
public enum SecurityLevel: Int, Sendable, Hashable {
    /// Android's software keystore: no hardware protection.
    case software = 0
    /// A Trusted Execution Environment (TrustZone and the like).
    case trustedEnvironment = 1
    /// A StrongBox: a separate secure element.
    case strongBox = 2
}
