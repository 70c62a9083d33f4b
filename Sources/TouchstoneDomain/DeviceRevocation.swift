import TouchstoneStorage

/// Revoking a device, the one way for a user removing their own device and for an administrator: in one transaction
/// the device is revoked, its sessions and those it approved end, and the user's other devices get a
/// `device_removed` notice.
struct DeviceRevocation: Sendable {
    let store: any DeviceStore
    let clock: any WallClock

    /// Revokes `device`.
    /// - Parameters:
    ///   - reason: what the device's and its sessions' rows record.
    ///   - actingDevice: the device that removed it, which the notice names and which gets none; `nil` for an
    ///     administrator.
    ///   - ip: the address the notice shows; `nil` for an administrator.
    /// - Returns: `false` (nothing written) when the device was no longer active.
    func revoke(_ device: DeviceRecord, reason: String, actingDevice: String?, ip: String?) async throws -> Bool {
        let now = clock.now()
        return try await store.revokeDevice(
            id: device.id, reason: reason, at: now,
            notices: [
                SecurityNotices.draft(
                    .deviceRemoved, userId: device.userId, device: device, actingDevice: actingDevice, ip: ip, at: now)
            ])
    }
}
