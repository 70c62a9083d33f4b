import TouchstoneCrypto
import TouchstoneProtocol

// What each kind of device-signed token must say for its use, beyond what ``DeviceTokenGate`` verifies for all.

extension ProofClaims {
    /// A proof of possession answers this enrolment's challenge.
    func verify(answering challenge: String) -> Bool {
        SecretDigest.constantTimeEquals(nonce, challenge)
    }
}

/// The claims of a token that a user verification unlocked — a login assertion, a decision on an inbox item: signed by
/// the biometric key, or by the device key with the PIN. ``DeviceAssertionPipeline`` judges both.
protocol UserVerifiedClaims: DeviceTokenClaims {
    /// The challenge answered.
    var nonce: String { get }
    var pin: String? { get }
    /// Whether the token says its device is compromised (only a login assertion can).
    var reportsCompromised: Bool { get }
    /// What this kind of token must say beyond the key rule.
    var isWellFormed: Bool { get }
}

extension UserVerifiedClaims {
    /// A PIN goes with the device key, and only with it; and the token says what its kind must.
    func verify(signedWithBiometricKey: Bool) -> Bool {
        (pin != nil) != signedWithBiometricKey && isWellFormed
    }
}

extension AssertionClaims: UserVerifiedClaims {
    var reportsCompromised: Bool { compromised == true }
    var isWellFormed: Bool { true }
}

extension DecisionClaims: UserVerifiedClaims {
    var reportsCompromised: Bool { false }
    /// The decision is `approve` or `deny`.
    var isWellFormed: Bool { ["approve", "deny"].contains(decision) }
}

extension RequestClaims {
    /// A request token names this very request: its method and URL (the issuer's URL with the path), and a `jti`.
    func verify(method: String, url: String) -> Bool {
        htm == method && htu == url && !jti.isEmpty
    }
}
