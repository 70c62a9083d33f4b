#if canImport(LocalAuthentication)
import Foundation

extension Platform {
    /// The Apple platform: Touch ID / Face ID through LocalAuthentication, keys in the Secure Enclave, the
    /// registration and sessions in the keychain of `accessGroup`.
    ///
    /// ```swift
    /// let client = TouchstoneClient(server: url, clientID: "com.example.pay",
    ///                               platform: .apple(accessGroup: "TEAMID.com.example.shared", integrity: MyAppAttest()))
    /// ```
    /// - Parameters:
    ///   - accessGroup: the keychain access group the publisher's apps share, team id included: apps that share it
    ///     share one registration (single sign-on).
    ///   - integrity: the device's integrity check. The default, ``FixedIntegrity``, reports every device as sound.
    ///   - fallbackTitle: the title of the biometric prompt's fallback button; `nil` shows the system's.
    ///   - transport: `nil` uses URLSession.
    ///   - attestor: the registration's key attestation, e.g. ``AppAttestKeyAttestor``; `nil` sends none.
    /// - ⚠️ Pass your own `IntegrityCheck` (App Attest, a jailbreak check): with the default, a compromised device is
    ///   never refused.
    /// - ⚠️ `accessGroup` must be in the `keychain-access-groups` entitlement of each app that uses it, and only in
    ///   apps of one publisher; `Info.plist` must have `NSFaceIDUsageDescription`.
    /// - ⚠️ Needs a Secure Enclave: on the Simulator and Macs without one, registration fails with
    ///   `biometryNotAvailable`; use ``software(directory:verifier:deviceName:compromised:transport:)`` there.
    public static func apple(
        accessGroup: String, integrity: any IntegrityCheck = FixedIntegrity(), fallbackTitle: String? = nil,
        transport: (any Transport)? = nil, attestor: (any KeyAttestor)? = nil
    ) -> Platform {
        let verifier = LocalAuthenticationVerifier(fallbackTitle: fallbackTitle)
        let keyStore = KeychainKeyStore(accessGroup: accessGroup, verifier: verifier)
        return Platform(
            verifier: verifier, keyStore: keyStore, deviceInfo: AppleDeviceInfo(keyStore: keyStore),
            integrity: integrity, transport: transport, attestor: attestor)
    }
}
#endif
