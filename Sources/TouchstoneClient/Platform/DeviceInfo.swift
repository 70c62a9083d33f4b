/// What the platform reports about the device: its fingerprint is bound to the registration.
public protocol DeviceInfo: Sendable {
    /// The device's name, model, vendor id and OS, as the platform reports them.
    func describe() async throws -> DeviceIdentity
}

/// The device as its platform reports it.
public struct DeviceIdentity: Sendable, Equatable {
    public var name: String
    public var model: String
    public var vendorId: String
    public var os: String

    public init(name: String, model: String, vendorId: String, os: String) {
        self.name = name
        self.model = model
        self.vendorId = vendorId
        self.os = os
    }
}

/// Whether the device is jailbroken or rooted, as the platform's integrity check says.
public protocol IntegrityCheck: Sendable {
    func isCompromised() async -> Bool
}
