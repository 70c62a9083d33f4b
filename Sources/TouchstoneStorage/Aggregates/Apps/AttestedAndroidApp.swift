/// One Android package allowed to enrol, with the SHA-256 of a certificate that signs it.
package struct AttestedAndroidApp: Codable, Sendable, Equatable {
    package var packageName: String
    /// The signing certificate's SHA-256, 64 lowercase hexadecimal digits.
    package var signingCertificateSHA256: String

    package init(packageName: String, signingCertificateSHA256: String) {
        self.packageName = packageName
        self.signingCertificateSHA256 = signingCertificateSHA256
    }
}
