import TouchstoneProtocol

/// A user and device that `touchstone bench` writes straight into its own database (see
/// ``TouchstoneRuntime/insecureEnrollForBenchmark(_:clientId:pin:)``).
package struct BenchmarkEnrollment: Sendable {
    package var username: String
    package var device: DeviceDescription
    package var deviceKey: PublicJWK
    package var biometricKey: PublicJWK

    package init(username: String, device: DeviceDescription, deviceKey: PublicJWK, biometricKey: PublicJWK) {
        self.username = username
        self.device = device
        self.deviceKey = deviceKey
        self.biometricKey = biometricKey
    }
}
