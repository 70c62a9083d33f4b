import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// Where a device's pushes go: its registration with APNs or FCM, which it sets, reads and removes itself.
package struct PushService: Sendable {
    typealias Store = PushStore

    let store: any Store
    let clock: any WallClock

    /// The lengths an APNs device token may have, in hexadecimal digits.
    static let apnsTokenLength = 64...200
    /// The lengths an FCM registration token may have.
    static let fcmTokenLength = 1...4096

    /// `PUT /v1/devices/{deviceId}/push`: makes this the device's only registration; another device holding the same
    /// token loses it.
    /// - Throws: 400 `invalid_request` for a malformed registration; 400 `push_not_configured` when the device's app
    ///   has no credentials for the provider, or not for the topic.
    package func register(_ request: PushRegistrationRequest, by device: AuthenticatedDevice) async throws {
        let token = try Self.checkedToken(request)
        let credentials = try await store.pushCredentials(clientId: device.record.clientId)
        switch request.provider {
        case .apns:
            guard let apns = credentials.apns else { throw Self.notConfigured("APNs") }
            guard let topic = request.topic, apns.topics.contains(topic) else {
                throw ProblemError(.pushNotConfigured, detail: "This app does not push to this topic.")
            }
        case .fcm:
            guard credentials.fcm != nil else { throw Self.notConfigured("FCM") }
        }
        try await store.registerPush(
            PushRegistration(
                deviceId: device.record.id, provider: request.provider, token: token, topic: request.topic,
                environment: request.environment, registeredAt: clock.now()))
    }

    /// `GET /v1/devices/{deviceId}/push`: the device's registration, without its token.
    /// - Throws: 404 `not_found` when the device has none.
    package func registration(of device: AuthenticatedDevice) async throws -> PushRegistrationSummary {
        guard let registration = try await store.pushRegistration(deviceId: device.record.id) else {
            throw ProblemError(.notFound, detail: "This device has no push registration.")
        }
        return PushRegistrationSummary(
            provider: registration.provider, topic: registration.topic, environment: registration.environment,
            registeredAt: registration.registeredAt)
    }

    /// `DELETE /v1/devices/{deviceId}/push`: the device gets no more pushes (none registered: nothing to do).
    package func unregister(_ device: AuthenticatedDevice) async throws {
        try await store.removePushRegistration(deviceId: device.record.id, token: nil)
    }

    /// The registration's token as it is stored (an APNs token in lowercase, so that one token is one token).
    /// - Throws: 400 `invalid_request`: an APNs registration needs a token of 64 to 200 hexadecimal digits, a `topic`
    ///   and an `environment`; an FCM one a token of 1 to 4096 characters of `A–Z a–z 0–9 _ : . -` and neither
    ///   `topic` nor `environment`.
    static func checkedToken(_ request: PushRegistrationRequest) throws -> String {
        let token = request.token.utf8
        switch request.provider {
        case .apns:
            guard apnsTokenLength.contains(token.count), token.allSatisfy(\.isHexDigit) else {
                throw ProblemError.invalidRequest(
                    "an APNs token must be \(apnsTokenLength.lowerBound) to \(apnsTokenLength.upperBound) hexadecimal "
                        + "digits")
            }
            guard request.topic != nil, request.environment != nil else {
                throw ProblemError.invalidRequest("an APNs registration needs topic and environment")
            }
            return request.token.lowercased()
        case .fcm:
            guard fcmTokenLength.contains(token.count), token.allSatisfy(\.isFCMTokenCharacter) else {
                throw ProblemError.invalidRequest(
                    "an FCM token must be \(fcmTokenLength.lowerBound) to \(fcmTokenLength.upperBound) characters of "
                        + "A-Z a-z 0-9 _ : . -")
            }
            guard request.topic == nil, request.environment == nil else {
                throw ProblemError.invalidRequest("an FCM registration has no topic or environment")
            }
            return request.token
        }
    }

    private static func notConfigured(_ provider: String) -> ProblemError {
        ProblemError(.pushNotConfigured, detail: "This app has no \(provider) credentials.")
    }
}

extension UInt8 {
    /// `0–9 a–f A–F`.
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }

    /// `A–Z a–z 0–9 _ : . -`.
    fileprivate var isFCMTokenCharacter: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || self == UInt8(ascii: "_")
            || self == UInt8(ascii: ":") || self == UInt8(ascii: ".") || self == UInt8(ascii: "-")
    }
}
