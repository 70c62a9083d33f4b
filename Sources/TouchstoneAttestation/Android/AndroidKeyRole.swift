/// What an attested Android key is enrolled as; the biometric key has stricter rules.
public enum AndroidKeyRole: Sendable, Hashable {
    /// The device key.
    case device
    /// The biometric key: usable only after a biometric check, for every use.
    case biometric
}
