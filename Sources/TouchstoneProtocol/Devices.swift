import Foundation

/// One entry of `GET /v1/devices`.
public struct DeviceSummary: Codable, Sendable, Equatable {
    public var deviceId: String
    public var name: String
    public var model: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var biometric: Bool
    public var current: Bool
    /// What the device's attestation proved at enrolment; `nil` (shown as null) for a device enrolled without one.
    public var attestation: DeviceAttestationKind?

    public init(
        deviceId: String, name: String, model: String, createdAt: Date, lastUsedAt: Date?, biometric: Bool,
        current: Bool, attestation: DeviceAttestationKind? = nil
    ) {
        self.deviceId = deviceId
        self.name = name
        self.model = model
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.biometric = biometric
        self.current = current
        self.attestation = attestation
    }

    private enum CodingKeys: String, CodingKey {
        case deviceId, name, model, createdAt, lastUsedAt, biometric, current, attestation
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(name, forKey: .name)
        try container.encode(model, forKey: .model)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(biometric, forKey: .biometric)
        try container.encode(current, forKey: .current)
        try container.encode(attestation, forKey: .attestation)
    }
}

/// `GET /v1/devices` answer.
public struct DeviceList: Codable, Sendable {
    public var devices: [DeviceSummary]

    public init(devices: [DeviceSummary]) {
        self.devices = devices
    }
}
