import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The check of a device's request token (`touchstone-request+jwt`): a device session's refresh, its Bearer requests
/// (`Touchstone-Device-Proof`), and a device's own requests (`Authorization: TouchstoneDevice`).
struct DeviceProofCheck: Sendable {
    let devices: any DeviceStore
    let gate: DeviceTokenGate
    /// The server's issuer, which `htu` begins with.
    let issuer: String

    /// Verifies a device's request token of a `method` call to `path`, and spends it.
    /// - Returns: the device, active.
    /// - Throws: 401 `device_proof_required` without one, `invalid_device_proof` for one that does not verify, is
    ///   spent, or is not of an active device.
    func verify(_ authorization: String?, deviceId: String, method: String, path: String) async throws -> DeviceRecord {
        let invalid = Self.invalid
        guard let authorization else {
            throw ProblemError(.deviceProofRequired)
        }
        let token = try DeviceTokenGate.parse(authorization, invalid: invalid)
        guard token.issuer == deviceId, let device = try await devices.device(id: deviceId),
            device.isActive, token.kid == device.deviceKeyThumbprint
        else { throw invalid }
        let verified = try gate.verify(token, key: device.deviceKey, as: RequestClaims.self, issuer: deviceId, invalid: invalid)
        guard verified.claims.verify(method: method, url: issuer + path) else { throw invalid }
        try await gate.spend(verified, replayed: invalid)
        return device
    }

    /// 401 `invalid_device_proof`.
    static let invalid = ProblemError(.invalidDeviceProof)
}
