/// The App Attest environment a key was attested in, as the AAGUID of its authenticator data says.
public enum AppAttestEnvironment: Sendable, Hashable {
    /// `appattest` followed by seven zero bytes: an App Store, TestFlight or enterprise build.
    case production
    /// `appattestdevelop`: a development build.
    case development

    /// The environment an AAGUID names, or nil for any other AAGUID.
    init?(aaguid: [UInt8]) {
        switch aaguid {
        case Array("appattest".utf8) + Array(repeating: 0, count: 7): self = .production
        case Array("appattestdevelop".utf8): self = .development
        default: return nil
        }
    }
}
