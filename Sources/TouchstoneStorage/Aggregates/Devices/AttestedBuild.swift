/// The build of the app that made a device's keys, as its attestation proved it at enrolment. Kept with the device so
/// that every app the device acts for checks its own list of attested builds, not only the app it enrolled under.
package enum AttestedBuild: Codable, Sendable, Equatable {
    /// Android: the packages of the attested app (`attestationApplicationId`) and the SHA-256 of every certificate
    /// that signs it, as 64 lowercase hexadecimal digits each.
    case android(packages: [String], signingCertificateSHA256: [String])
    /// Apple App Attest: the App ID (`TEAMID.bundle.id`) the key is scoped to, and whether it was made in the
    /// development environment.
    case apple(appID: String, development: Bool)
}
