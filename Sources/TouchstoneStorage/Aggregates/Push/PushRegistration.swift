import Foundation
import TouchstoneProtocol

/// Where a device's pushes go: one registration per device, and one device per token.
package struct PushRegistration: Sendable, Equatable {
    package var deviceId: String
    package var provider: PushProvider
    package var token: String
    /// APNs: the bundle id.
    package var topic: String?
    /// APNs: the host the token belongs to.
    package var environment: APNsEnvironment?
    package var registeredAt: Date

    package init(
        deviceId: String, provider: PushProvider, token: String, topic: String? = nil,
        environment: APNsEnvironment? = nil, registeredAt: Date
    ) {
        self.deviceId = deviceId
        self.provider = provider
        self.token = token
        self.topic = topic
        self.environment = environment
        self.registeredAt = registeredAt
    }
}
