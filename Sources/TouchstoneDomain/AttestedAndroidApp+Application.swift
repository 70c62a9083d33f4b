import TouchstoneAttestation
import TouchstoneStorage

extension AttestedAndroidApp {
    /// The pair as the attestation policy takes it; `nil` when the stored digest is not 64 hexadecimal digits (an
    /// administrator's registration checks that, so a stored one always is).
    var application: AndroidApplication? {
        guard let digest = HexDigits.bytes(signingCertificateSHA256), digest.count == 32 else { return nil }
        return AndroidApplication(packageName: packageName, signingCertificateSHA256: digest)
    }
}
