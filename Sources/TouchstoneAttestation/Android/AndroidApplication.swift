/// An Android app allowed to enrol: a package name and the SHA-256 of one of its signing certificates.
public struct AndroidApplication: Sendable, Hashable {
    /// The package name, for example `com.example.app`.
    public let packageName: String
    /// The SHA-256 of a certificate that signs the app (32 bytes).
    public let signingCertificateSHA256: [UInt8]

    /// One allowed pair: `packageName` signed by the certificate whose SHA-256 is `signingCertificateSHA256`.
    public init(packageName: String, signingCertificateSHA256: [UInt8]) {
        self.packageName = packageName
        self.signingCertificateSHA256 = signingCertificateSHA256
    }
}
