import Foundation
import TouchstoneProtocol

/// Whether biometric login can be offered, and if not, why.
public enum Availability: Sendable, Equatable {
    case available(BiometryKind)
    /// The reason, one of `deviceCompromised`, `biometryNotAvailable`, `biometryNotEnrolled`, `passcodeNotSet`,
    /// `biometryLockout`, `optedOut`, `policyForbidsBiometry`.
    case unavailable(TouchstoneError.Code)
}

/// What the device holds for this app.
public struct DeviceStatus: Sendable, Equatable, Codable {
    public var registered: Bool
    public var deviceId: String?
    public var username: String?
    public var clientId: String
    public var biometric: Bool

    private enum CodingKeys: String, CodingKey {
        case registered, deviceId, username, clientId, biometric
    }

    /// Every member is written, `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(registered, forKey: .registered)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(username, forKey: .username)
        try container.encode(clientId, forKey: .clientId)
        try container.encode(biometric, forKey: .biometric)
    }
}

extension TouchstoneClient {
    /// Whether biometric login can be offered now; the reason when not.
    public func availability() async -> Availability {
        if await platform.integrity.isCompromised() { return .unavailable(.deviceCompromised) }
        let kind: BiometryKind
        switch await platform.verifier.biometryState() {
        case .available(let available): kind = available
        case .noHardware: return .unavailable(.biometryNotAvailable)
        case .notEnrolled: return .unavailable(.biometryNotEnrolled)
        case .passcodeNotSet: return .unavailable(.passcodeNotSet)
        case .lockedOut: return .unavailable(.biometryLockout)
        }
        if let policy = try? await policy(), !policy.biometricAllowed { return .unavailable(.policyForbidsBiometry) }
        if let registration = try? await keyStore.registration(), registration.server == issuer,
            registration.biometricKey == nil
        {
            return .unavailable(.optedOut)
        }
        return .available(kind)
    }

    /// What this device holds for this app.
    public func status() async throws -> DeviceStatus {
        let registration = try await keyStore.registration().flatMap { $0.server == issuer ? $0 : nil }
        return DeviceStatus(
            registered: registration != nil, deviceId: registration?.deviceId, username: registration?.username,
            clientId: clientID, biometric: registration?.biometricKey != nil)
    }

    /// Turns biometrics off for this device: the server revokes the biometric key, then it is deleted here.
    /// The device logs in with its PIN from then on.
    public func optOut() async throws {
        let registration = try await requireRegistration()
        try await sendAuthorized(
            Endpoint.optOut.method, Endpoint.optOut.path(registration.deviceId), by: registration)
        try await keyStore.removeBiometricKey()
    }

    /// Deregisters this device: the server revokes it, then its keys and sessions are wiped here.
    public func deregister() async throws {
        let registration = try await requireRegistration()
        do {
            try await sendAuthorized(
                Endpoint.removeDevice.method, Endpoint.removeDevice.path(registration.deviceId), by: registration)
        } catch let error as TouchstoneError where error.serverCode == .deviceNotFound {
            // Already gone on the server.
        } catch let error as TouchstoneError where error.code == .reauthenticationRequired {
            // Without a session: wipe only when the server says the device is revoked (an administrator did it).
            guard try await isRevokedOnServer(registration) else { throw error }
        }
        try await keyStore.wipe()
    }

    /// Whether the server has revoked (or forgotten) this device: it refuses a login challenge for it.
    private func isRevokedOnServer(_ registration: Registration) async throws -> Bool {
        do {
            try await send(Endpoint.challenge.method, Endpoint.challenge.path(), body: ChallengeRequest(deviceId: registration.deviceId))
            return false
        } catch let error as TouchstoneError
            where error.serverCode == .deviceRevoked || error.serverCode == .deviceNotFound
        {
            return true
        }
    }

    /// Forgets the registration on this device only; the server is not told.
    public func reset() async throws {
        try await keyStore.wipe()
    }
}
