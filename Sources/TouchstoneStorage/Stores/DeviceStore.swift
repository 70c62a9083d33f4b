import Foundation

/// Enrolled devices, their keys and PINs. Every method is atomic on its own.
package protocol DeviceStore: Sendable {
    func device(id: String) async throws -> DeviceRecord?
    func devices(userId: String) async throws -> [DeviceRecord]
    func allDevices() async throws -> [DeviceRecord]
    /// Revokes an active device and ends its sessions; `false` when it was not active.
    func revokeDevice(id: String, reason: String, at: Date) async throws -> Bool
    /// Deletes an active device's biometric key; `false` when the device is not active.
    func removeBiometricKey(deviceId: String) async throws -> Bool
    /// Sets an active device's PIN hash, resets its count and unlocks it; `false` when the device is not active.
    func setPIN(deviceId: String, pinHash: String) async throws -> Bool
}
