#if canImport(DeviceCheck)
import DeviceCheck
import Foundation
import TouchstoneProtocol

/// App Attest: a new App Attest key for each registration, attested by Apple over Touchstone's `clientDataHash`,
/// which commits to the enrolment challenge and both new keys.
///
/// App Attest keys cannot themselves require a biometric: the attestation vouches that the genuine app on a genuine
/// device made the registration's two keys, not where they live.
/// - ⚠️ The App ID (`TEAMID.bundle.id`) must be allowed for the app on the server (`--apple-app-id`), and the app
///   needs the App Attest entitlement (`com.apple.developer.devicecheck.appattest-environment`).
public struct AppAttestKeyAttestor: KeyAttestor {
    public init() {}

    /// - Returns: `nil` where App Attest is not supported (the Simulator, some Macs).
    public func attest(_ subject: KeyAttestationSubject) async throws -> EnrollmentAttestation? {
        let service = DCAppAttestService.shared
        guard service.isSupported else { return nil }
        let keyId = try await service.generateKey()
        let object = try await service.attestKey(keyId, clientDataHash: Data(subject.appAttestClientDataHash))
        guard let keyID = Data(base64Encoded: keyId) else {
            throw TouchstoneError(.transport, "App Attest returned a key identifier that is not base64")
        }
        return .appleAppAttest(keyId: Base64URL.encode(keyID), attestationObject: Base64URL.encode(object))
    }
}
#endif
