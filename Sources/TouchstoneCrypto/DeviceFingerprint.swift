import Crypto
import TouchstoneProtocol

/// The device fingerprint `dfp` that binds an enrolment to the device it was made on.
public enum DeviceFingerprint {
    /// base64url(SHA-256("touchstone-device-v1\n" + vendorId + "\n" + model + "\n" + name)).
    public static func of(vendorId: String, model: String, name: String) -> String {
        let text = "touchstone-device-v1\n" + vendorId + "\n" + model + "\n" + name
        return Base64URL.encode(SHA256.hash(data: Array(text.utf8)))
    }

    /// The fingerprint of a device as it described itself.
    public static func of(_ device: DeviceDescription) -> String {
        of(vendorId: device.vendorId, model: device.model, name: device.name)
    }
}
