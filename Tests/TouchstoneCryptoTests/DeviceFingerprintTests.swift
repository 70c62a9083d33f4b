import Crypto
import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol

/// `dfp` = base64url(SHA-256(UTF-8 of "touchstone-device-v1\n" + vendorId + "\n" + model + "\n" + name)).
@Suite struct DeviceFingerprintTests {
    /// PROTOCOL.md's formula, computed here with Foundation's base64 rather than `Base64URL`.
    static func expected(vendorId: String, model: String, name: String) -> String {
        let text = "touchstone-device-v1\n" + vendorId + "\n" + model + "\n" + name
        return Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test(arguments: [
        ("vendor-4F1C", "Pixel 9", "Ana's phone"),
        ("", "", ""),
        ("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "iPhone17,1", "Ana\u{2019}s iPhone 📱"),
        ("v", "m\r\n", " n "),
    ])
    func matchesTheProtocolFormula(_ vendorId: String, _ model: String, _ name: String) {
        #expect(DeviceFingerprint.of(vendorId: vendorId, model: model, name: name)
            == Self.expected(vendorId: vendorId, model: model, name: name))
    }

    /// A known answer, computed with Python's hashlib from the formula.
    @Test func knownAnswer() {
        #expect(DeviceFingerprint.of(vendorId: "vendor-4F1C", model: "Pixel 9", name: "Ana\u{2019}s phone 📱")
            == "mJviy45R8RklE_tbHy29-EvMiKtBkYw0KUefpEcS2qc")
    }

    @Test func usesTheDescriptionsFieldsInOrder() {
        let device = DeviceDescription(name: "N", model: "M", vendorId: "V", os: "Android 16", compromised: false)
        #expect(DeviceFingerprint.of(device) == Self.expected(vendorId: "V", model: "M", name: "N"))
        #expect(DeviceFingerprint.of(device) != Self.expected(vendorId: "N", model: "M", name: "V"))
        var other = device
        other.os = "Android 17"
        other.compromised = true
        #expect(DeviceFingerprint.of(other) == DeviceFingerprint.of(device))
    }

    @Test func isBase64URLOfThirtyTwoBytes() {
        let dfp = DeviceFingerprint.of(vendorId: "a", model: "b", name: "c")
        #expect(dfp.count == 43)
        #expect(Base64URL.decode(dfp)?.count == 32)
    }
}
