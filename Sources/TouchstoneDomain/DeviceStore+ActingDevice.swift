import TouchstoneStorage

extension DeviceStore {
    /// The device whose session makes the request, if it is a device session (for the detail of a notice).
    func actingDevice(of identity: AccessIdentity) async throws -> DeviceRecord? {
        guard let deviceId = identity.deviceId else { return nil }
        return try await device(id: deviceId)
    }
}
