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

    public init(
        deviceId: String, name: String, model: String, createdAt: Date, lastUsedAt: Date?, biometric: Bool,
        current: Bool
    ) {
        self.deviceId = deviceId
        self.name = name
        self.model = model
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.biometric = biometric
        self.current = current
    }

    private enum CodingKeys: String, CodingKey {
        case deviceId, name, model, createdAt, lastUsedAt, biometric, current
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
    }
}

/// `GET /v1/devices` answer.
public struct DeviceList: Codable, Sendable {
    public var devices: [DeviceSummary]

    public init(devices: [DeviceSummary]) {
        self.devices = devices
    }
}
