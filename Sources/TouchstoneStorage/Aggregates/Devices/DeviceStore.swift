import Foundation

/// Enrolled devices, their keys and PINs. Every method is atomic on its own.
package protocol DeviceStore: Sendable {
    func device(id: String) async throws -> DeviceRecord?
    func devices(userId: String) async throws -> [DeviceRecord]
    func allDevices() async throws -> [DeviceRecord]
    /// In one transaction: revokes an active device, ends its sessions and those it approved, and leaves `notices`;
    /// `false` (nothing written) when it was not active.
    func revokeDevice(id: String, reason: String, at: Date, notices: [NoticeDraft]) async throws -> Bool
    /// Deletes an active device's biometric key; `false` when the device is not active.
    func removeBiometricKey(deviceId: String) async throws -> Bool
    /// In one transaction: sets an active device's PIN hash, resets its count, unlocks it and leaves `notice`; `false`
    /// (nothing written) when the device is not active.
    func setPIN(deviceId: String, pinHash: String, notice: NoticeDraft) async throws -> Bool
}
