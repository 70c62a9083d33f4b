import TouchstoneCrypto
import TouchstoneProtocol

// What each kind of device-signed token must say for its use, beyond what ``DeviceTokenGate`` verifies for all.

extension ProofClaims {
    /// A proof of possession answers this enrolment's challenge.
    func verify(answering challenge: String) -> Bool {
        SecretDigest.constantTimeEquals(nonce, challenge)
    }
}

extension AssertionClaims {
    /// A PIN goes with the device key, and only with it.
    func verify(signedWithBiometricKey: Bool) -> Bool {
        (pin != nil) != signedWithBiometricKey
    }
}

extension DecisionClaims {
    /// A PIN goes with the device key, and only with it; the decision is `approve` or `deny`.
    func verify(signedWithBiometricKey: Bool) -> Bool {
        (pin != nil) != signedWithBiometricKey && ["approve", "deny"].contains(decision)
    }
}

extension RequestClaims {
    /// A request token names this very request: its method and URL (the issuer's URL with the path), and a `jti`.
    func verify(method: String, url: String) -> Bool {
        htm == method && htu == url && !jti.isEmpty
    }
}
