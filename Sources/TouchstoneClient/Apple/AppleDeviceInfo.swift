#if canImport(LocalAuthentication)
import Foundation

#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// The device as Apple platforms report it: `UIDevice` on iOS (name, model, `identifierForVendor`, system), and on
/// macOS the computer name, the hardware model and a vendor id kept in the keychain.
///
/// - ⚠️ The server binds the registration to this identity: when it changes (the vendor id resets once every app of
///   the publisher is deleted; the user renames the Mac) logins meet `binding_mismatch` and the keys are wiped.
/// - ⚠️ Since iOS 16 `UIDevice.name` is the generic model name ("iPhone") unless the app has the user-assigned device
///   name entitlement; gaining or losing that entitlement after registration changes the identity.
public struct AppleDeviceInfo: DeviceInfo {
    let keyStore: KeychainKeyStore
    let nameOverride: String?

    /// - Parameters:
    ///   - keyStore: keeps the vendor id where the platform has no `identifierForVendor` (macOS).
    ///   - name: replaces the name the platform reports.
    public init(keyStore: KeychainKeyStore, name: String? = nil) {
        self.keyStore = keyStore
        self.nameOverride = name
    }

    /// - Throws: ``TouchstoneError`` `transport` when iOS has no `identifierForVendor` yet (after a restart, until the
    ///   first unlock), or the keychain refuses.
    public func describe() async throws -> DeviceIdentity {
        #if canImport(UIKit) && !os(watchOS)
        let device = await Self.currentDevice()
        guard let vendorId = device.vendorId else {
            throw TouchstoneError(.transport, "identifierForVendor is not available yet; unlock the device and try again")
        }
        return DeviceIdentity(name: nameOverride ?? device.name, model: device.model, vendorId: vendorId, os: device.os)
        #elseif os(macOS)
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return DeviceIdentity(
            name: nameOverride ?? Host.current().localizedName ?? ProcessInfo.processInfo.hostName,
            model: Self.hardwareModel() ?? "Mac", vendorId: try await keyStore.vendorId(),
            os: "macOS \(version.majorVersion).\(version.minorVersion).\(version.patchVersion)")
        #else
        return DeviceIdentity(
            name: nameOverride ?? ProcessInfo.processInfo.hostName, model: "Apple device",
            vendorId: try await keyStore.vendorId(), os: ProcessInfo.processInfo.operatingSystemVersionString)
        #endif
    }

    #if canImport(UIKit) && !os(watchOS)
    /// What `UIDevice` reports (UIKit wants the main actor).
    @MainActor
    private static func currentDevice() -> (name: String, model: String, vendorId: String?, os: String) {
        let device = UIDevice.current
        return (
            device.name, device.model, device.identifierForVendor?.uuidString,
            "\(device.systemName) \(device.systemVersion)"
        )
    }
    #endif

    #if os(macOS)
    /// The hardware model (`hw.model`, e.g. `Mac14,2`).
    private static func hardwareModel() -> String? {
        var size = 0
        guard sysctlbyname("hw.model", nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard sysctlbyname("hw.model", &bytes, &size, nil, 0) == 0 else { return nil }
        let model = String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        return model.isEmpty ? nil : model
    }
    #endif
}
#endif
