/// What the relying party asked for when it started a registration ceremony (its `PublicKeyCredentialCreationOptions`).
public struct RegistrationExpectations: Sendable, Hashable {
    /// The challenge sent in the options.
    public var challenge: [UInt8]
    /// The user handle (`user.id`) of the account being registered to.
    public var userHandle: [UInt8]
    /// Whether the UV flag must be set (§7.1 step 16).
    public var requiresUserVerification: Bool
    /// The algorithms offered in `pubKeyCredParams` (§7.1 step 20).
    public var algorithms: [COSEAlgorithm]
    /// Credential IDs the options excluded (already registered); registering one of them fails (§7.1 step 26).
    public var excludedCredentialIDs: [[UInt8]]

    /// - ⚠️ `challenge` is the one sent in this ceremony's options, used once; `algorithms` must be those offered.
    public init(
        challenge: [UInt8], userHandle: [UInt8], requiresUserVerification: Bool = true,
        algorithms: [COSEAlgorithm] = COSEAlgorithm.supported, excludedCredentialIDs: [[UInt8]] = []
    ) {
        self.challenge = challenge
        self.userHandle = userHandle
        self.requiresUserVerification = requiresUserVerification
        self.algorithms = algorithms
        self.excludedCredentialIDs = excludedCredentialIDs
    }
}
