import Foundation
import TouchstoneProtocol

/// Where a device keeps its keys, its registration and its sessions (a keychain access group, or a directory).
///
/// Apps that share one key store share one registration (single sign-on within a publisher).
public protocol KeyStore: Sendable {
    /// The registration held, if any.
    func registration() async throws -> Registration?
    /// Makes a new device key (possession; usable without a biometric). It is kept only by ``save(_:)``.
    func makeDeviceKey() async throws -> any DeviceKey
    /// Makes a new biometric key (each use needs a biometric). It is kept only by ``save(_:)``.
    func makeBiometricKey() async throws -> any DeviceKey
    /// Keeps a registration and its keys, replacing any earlier one and its sessions.
    func save(_ registration: Registration) async throws
    /// Deletes the biometric key, keeping the rest.
    func removeBiometricKey() async throws
    /// Deletes the registration, its keys and every session.
    func wipe() async throws
    /// The last session of an app, if any.
    func session(clientId: String) async throws -> StoredSession?
    /// Keeps (or with `nil`, forgets) the session of an app.
    func setSession(_ session: StoredSession?, clientId: String) async throws
}

/// A device's registration with a server.
public struct Registration: Sendable {
    public var server: String
    public var deviceId: String
    public var userId: String
    public var username: String
    public var deviceKey: any DeviceKey
    public var biometricKey: (any DeviceKey)?

    public init(
        server: String, deviceId: String, userId: String, username: String, deviceKey: any DeviceKey,
        biometricKey: (any DeviceKey)?
    ) {
        self.server = server
        self.deviceId = deviceId
        self.userId = userId
        self.username = username
        self.deviceKey = deviceKey
        self.biometricKey = biometricKey
    }
}

/// A session and when it was received, to know when its access token expires; and a step-up token, if any.
public struct StoredSession: Sendable, Codable, Equatable {
    public var session: Session
    public var receivedAt: Date
    /// The privileged access token of the last step-up.
    public var privilegedToken: String?
    public var privilegedUntil: Date?

    public init(session: Session, receivedAt: Date, privilegedToken: String? = nil, privilegedUntil: Date? = nil) {
        self.session = session
        self.receivedAt = receivedAt
        self.privilegedToken = privilegedToken
        self.privilegedUntil = privilegedUntil
    }

    /// Whether the access token is still good for `margin` seconds.
    func isFresh(at now: Date, margin: TimeInterval = 30) -> Bool {
        receivedAt.addingTimeInterval(TimeInterval(session.expiresIn) - margin) > now
    }
}
