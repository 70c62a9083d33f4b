import Foundation

extension Platform {
    /// The software platform: keys in `directory`, the given verifier (fprintd, none, or a script in tests).
    /// - Parameters:
    ///   - verifier: `nil` picks fprintd where it is installed, and no biometrics otherwise.
    ///   - deviceName: replaces the host name reported as the device's name.
    ///   - compromised: what the integrity check reports.
    public static func software(
        directory: URL, verifier: (any UserVerifier)? = nil, deviceName: String? = nil, compromised: Bool = false,
        transport: (any Transport)? = nil
    ) -> Platform {
        let keyStore = SoftwareKeyStore(directory: directory)
        return Platform(
            verifier: verifier ?? FprintdVerifier() ?? NoBiometrics(), keyStore: keyStore,
            deviceInfo: SoftwareDeviceInfo(keyStore: keyStore, name: deviceName),
            integrity: FixedIntegrity(compromised: compromised), transport: transport)
    }
}
