import Foundation

/// The device as Linux reports it: the host name, the machine and kernel, and a vendor id kept in the profile.
public struct SoftwareDeviceInfo: DeviceInfo {
    let keyStore: SoftwareKeyStore
    let nameOverride: String?

    /// - Parameter name: replaces the host name (e.g. to test what a renamed device meets).
    public init(keyStore: SoftwareKeyStore, name: String? = nil) {
        self.keyStore = keyStore
        self.nameOverride = name
    }

    public func describe() async throws -> DeviceIdentity {
        var system = utsname()
        uname(&system)
        let machine = Self.string(&system.machine)
        let release = Self.string(&system.release)
        return DeviceIdentity(
            name: nameOverride ?? ProcessInfo.processInfo.hostName, model: "Linux \(machine)",
            vendorId: try await keyStore.vendorId(), os: "Linux \(release)")
    }

    private static func string<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}

/// An integrity check that reports what it was given: for Linux, tests and demos.
public struct FixedIntegrity: IntegrityCheck {
    public let compromised: Bool

    public init(compromised: Bool = false) {
        self.compromised = compromised
    }

    public func isCompromised() async -> Bool { compromised }
}
