import Foundation

extension Platform {
    /// The software platform: keys in `directory`, the given verifier (fprintd, none, or a script in tests).
    /// - Parameters:
    ///   - verifier: `nil` picks fprintd where it is installed (Linux and macOS), and no biometrics otherwise; on
    ///     iOS, which has no fprintd, `nil` means no biometrics: the device uses its PIN.
    ///   - deviceName: replaces the host name reported as the device's name.
    ///   - compromised: what the integrity check reports.
    public static func software(
        directory: URL, verifier: (any UserVerifier)? = nil, deviceName: String? = nil, compromised: Bool = false,
        transport: (any Transport)? = nil
    ) -> Platform {
        let keyStore = SoftwareKeyStore(directory: directory)
        return Platform(
            verifier: verifier ?? defaultSoftwareVerifier(), keyStore: keyStore,
            deviceInfo: SoftwareDeviceInfo(keyStore: keyStore, name: deviceName),
            integrity: FixedIntegrity(compromised: compromised), transport: transport)
    }

    /// The software platform's verifier when none is given: fprintd where it is installed, otherwise no biometrics.
    private static func defaultSoftwareVerifier() -> any UserVerifier {
        #if os(Linux) || os(macOS)
        FprintdVerifier() ?? NoBiometrics()
        #else
        NoBiometrics()
        #endif
    }
}
