import Crypto

/// The `clientDataHash` an App Attest attestation of an enrolment is made with (PROTOCOL "Hardware key attestation"):
/// it binds Apple's attestation to this enrolment's challenge and to the two keys being enrolled.
public enum AppAttestClientData {
    /// SHA-256(UTF-8 of `"touchstone-appattest-v1\n" + challenge + "\n" + deviceKey kid + "\n" + (biometricKey kid or
    /// "")`): unambiguous because no part may contain a line break.
    /// - Parameters:
    ///   - challenge: the enrolment's challenge, as the server sent it (base64url).
    ///   - deviceKeyID: the device key's `kid` (its RFC 7638 thumbprint).
    ///   - biometricKeyID: the biometric key's `kid`; `nil` when there is no biometric key.
    public static func hash(challenge: String, deviceKeyID: String, biometricKeyID: String?) -> [UInt8] {
        let input = "touchstone-appattest-v1\n" + challenge + "\n" + deviceKeyID + "\n" + (biometricKeyID ?? "")
        return Array(SHA256.hash(data: Array(input.utf8)))
    }
}
