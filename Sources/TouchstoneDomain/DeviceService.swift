import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// A user's own devices, seen through a Bearer session.
package struct DeviceService: Sendable {
    typealias Store = DeviceStore

    let store: any Store
    let auditor: Auditor
    let revocation: DeviceRevocation

    /// `GET /v1/devices`: the caller's active devices.
    package func list(_ identity: AccessIdentity) async throws -> DeviceList {
        let devices = try await store.devices(userId: identity.userId).filter(\.isActive)
        return DeviceList(
            devices: devices.map { device in
                DeviceSummary(
                    deviceId: device.id, name: device.name, model: device.model, createdAt: device.createdAt,
                    lastUsedAt: device.lastUsedAt, biometric: device.biometricKey != nil,
                    current: device.id == identity.deviceId, attestation: device.attestation?.kind)
            })
    }

    /// `DELETE /v1/devices/{id}`: revokes the device and ends its sessions.
    package func delete(_ deviceId: String, by identity: AccessIdentity, ip: String) async throws {
        try await auditor.recording(
            .deviceRevoke, userId: identity.userId, deviceId: deviceId, clientId: identity.claims.aud, ip: ip
        ) {
            let device = try await ownDevice(deviceId, of: identity)
            _ = try await revocation.revoke(device, reason: "deleted by user", actingDevice: identity.deviceId, ip: ip)
        }
    }

    /// `DELETE /v1/devices/{id}/biometric-key`: opt-out; biometric assertions from it fail from now on.
    package func optOut(_ deviceId: String, by identity: AccessIdentity, ip: String) async throws {
        try await auditor.recording(
            .deviceOptOut, userId: identity.userId, deviceId: deviceId, clientId: identity.claims.aud, ip: ip
        ) {
            let device = try await ownDevice(deviceId, of: identity)
            guard try await store.removeBiometricKey(deviceId: device.id) else {
                throw ProblemError.deviceNotFound
            }
        }
    }

    /// An active device of the caller; any other device needs a privileged (stepped-up) token.
    private func ownDevice(_ deviceId: String, of identity: AccessIdentity) async throws -> DeviceRecord {
        guard let device = try await store.device(id: deviceId), device.userId == identity.userId,
            device.isActive
        else { throw ProblemError.deviceNotFound }
        if device.id != identity.deviceId { try StepUpService.requirePrivilege(identity) }
        return device
    }

}
