/// One entry of `pubKeyCredParams` (WebAuthn §5.3).
public struct PublicKeyCredentialParameters: Sendable, Hashable, Codable {
    /// Always `public-key`.
    public var type: String
    public var alg: COSEAlgorithm

    public init(type: String = "public-key", alg: COSEAlgorithm) {
        self.type = type
        self.alg = alg
    }
}
