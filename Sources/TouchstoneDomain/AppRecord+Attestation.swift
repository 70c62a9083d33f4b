import TouchstoneStorage

extension AppRecord {
    /// Whether `device` may act for this app (log in, refresh, decide) as far as attestation goes: always when the
    /// policy does not require one; otherwise only when the device's attestation proved a build this app allows — any
    /// valid attestation when the app lists no build. So single sign-on from an app of the same publisher that did not
    /// require attestation does not get around this app's requirement.
    ///
    /// A device attested before builds were kept proves no build: it satisfies only the app it enrolled under, whose
    /// list its enrolment was checked against.
    func admitsAttestation(of device: DeviceRecord) -> Bool {
        guard policy.attestation == .required else { return true }
        guard let attestation = device.attestation else { return false }
        guard !attestedApps.android.isEmpty || !attestedApps.appleAppIds.isEmpty else { return true }
        switch attestation.build {
        case .android(let packages, let digests):
            return attestedApps.android.contains { allowed in
                packages.contains(allowed.packageName) && digests.contains(allowed.signingCertificateSHA256)
            }
        case .apple(let appID, let development):
            return attestedApps.appleAppIds.contains(appID) && (!development || attestedApps.appleDevelopment)
        case nil:
            return device.clientId == clientId
        }
    }
}
