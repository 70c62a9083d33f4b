import TouchstoneProtocol

/// A user and device that `touchstone bench` writes straight into its own database (see
/// ``TouchstoneRuntime/insecureEnrollForBenchmark(_:clientId:pin:)``).
public struct BenchmarkEnrollment: Sendable {
    public var username: String
    public var device: DeviceDescription
    public var deviceKey: PublicJWK
    public var biometricKey: PublicJWK

    public init(username: String, device: DeviceDescription, deviceKey: PublicJWK, biometricKey: PublicJWK) {
        self.username = username
        self.device = device
        self.deviceKey = deviceKey
        self.biometricKey = biometricKey
    }
}
