import Foundation

/// The platform pieces a ``TouchstoneClient`` runs on.
public struct Platform: Sendable {
    public var verifier: any UserVerifier
    public var keyStore: any KeyStore
    public var deviceInfo: any DeviceInfo
    public var integrity: any IntegrityCheck
    public var transport: (any Transport)?
    /// The hardware key attestation sent with each registration; `nil` sends none (the software platform has none).
    public var attestor: (any KeyAttestor)?
    /// The device's clock: the times of the tokens it signs and of its sessions' freshness.
    public var now: @Sendable () -> Date

    /// - Parameters:
    ///   - transport: `nil` uses URLSession.
    ///   - now: the clock; the system's by default.
    ///   - attestor: attests the keys of each registration; `nil` for none.
    public init(
        verifier: any UserVerifier, keyStore: any KeyStore, deviceInfo: any DeviceInfo, integrity: any IntegrityCheck,
        transport: (any Transport)? = nil, now: @escaping @Sendable () -> Date = { Date() },
        attestor: (any KeyAttestor)? = nil
    ) {
        self.verifier = verifier
        self.keyStore = keyStore
        self.deviceInfo = deviceInfo
        self.integrity = integrity
        self.transport = transport
        self.now = now
        self.attestor = attestor
    }
}
