import TouchstoneCrypto
import TouchstoneStorage

/// An app that proved itself with one of its unrevoked API keys (`Authorization: ApiKey`). Only
/// ``ServiceEnvironment/authenticateApp(apiKey:)`` makes one, so a service that takes it needs no other check.
package struct AuthenticatedApp: Sendable {
    package let record: AppRecord

    package var clientId: String { record.clientId }
    package var publisher: String { record.publisher }

    fileprivate init(record: AppRecord) {
        self.record = record
    }
}

/// An active device that signed this very request (`Authorization: TouchstoneDevice`, a `touchstone-request+jwt`
/// naming its method and path). Only ``SessionService/authenticateDevice(_:deviceId:method:path:)`` makes one.
package struct AuthenticatedDevice: Sendable {
    package let record: DeviceRecord

    fileprivate init(record: DeviceRecord) {
        self.record = record
    }
}

extension ServiceEnvironment {
    /// The app of an API key, or 401 `unauthorized`.
    package func authenticateApp(apiKey key: String?) async throws -> AuthenticatedApp {
        guard let key, let clientId = try await store.apiKeyClientId(hash: SecretDigest.sha256(key)),
            let app = try await store.app(clientId: clientId)
        else { throw ProblemError.invalidAPIKey }
        return AuthenticatedApp(record: app)
    }
}

extension SessionService {
    /// The device whose request token (`touchstone-request+jwt`) `authorization` is, for a `method` call to `path`.
    /// - Throws: 401 `device_proof_required` without one, `invalid_device_proof` for one that does not verify, is
    ///   spent, or is not of an active device.
    package func authenticateDevice(_ authorization: String?, deviceId: String, method: String, path: String)
        async throws -> AuthenticatedDevice
    {
        AuthenticatedDevice(
            record: try await proofs.verify(authorization, deviceId: deviceId, method: method, path: path))
    }
}
