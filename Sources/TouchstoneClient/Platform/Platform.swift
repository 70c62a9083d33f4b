import Foundation

/// The platform pieces a ``TouchstoneClient`` runs on.
public struct Platform: Sendable {
    public var verifier: any UserVerifier
    public var keyStore: any KeyStore
    public var deviceInfo: any DeviceInfo
    public var integrity: any IntegrityCheck
    public var transport: (any Transport)?

    /// - Parameter transport: `nil` uses URLSession.
    public init(
        verifier: any UserVerifier, keyStore: any KeyStore, deviceInfo: any DeviceInfo, integrity: any IntegrityCheck,
        transport: (any Transport)? = nil
    ) {
        self.verifier = verifier
        self.keyStore = keyStore
        self.deviceInfo = deviceInfo
        self.integrity = integrity
        self.transport = transport
    }
}
