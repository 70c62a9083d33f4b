/// `clientExtensionResults` (WebAuthn §5.7.1). No extensions are requested, so members are ignored; the one
/// commonly volunteered, `credProps`, is read for information.
public struct AuthenticationExtensionsClientOutputsJSON: Sendable, Hashable, Codable {
    /// `credProps` (§10.1.3).
    public struct CredentialProperties: Sendable, Hashable, Codable {
        /// Whether the credential is discoverable, when the browser knows.
        public var rk: Bool?

        public init(rk: Bool?) {
            self.rk = rk
        }
    }

    public var credProps: CredentialProperties?

    public init(credProps: CredentialProperties? = nil) {
        self.credProps = credProps
    }
}
