/// A public key as a JWK (RFC 7517): P-256, Ed25519 or RSA. Members other than these are ignored.
public struct PublicJWK: Codable, Sendable, Hashable {
    public var kty: String
    public var crv: String?
    public var x: String?
    public var y: String?
    public var n: String?
    public var e: String?
    /// Present only when a client mistakenly sends a private key; such a key is refused.
    public var d: String?

    public init(kty: String, crv: String? = nil, x: String? = nil, y: String? = nil, n: String? = nil, e: String? = nil) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
    }
}

/// A JWK Set as `GET /.well-known/jwks.json` publishes it: P-256 keys (`ES256`) and RSA keys (`RS256`).
public struct JWKSet: Codable, Sendable {
    public struct Key: Codable, Sendable, Equatable {
        public var kty: String
        /// EC keys: the curve and the point.
        public var crv: String?
        public var x: String?
        public var y: String?
        /// RSA keys: the modulus and the public exponent.
        public var n: String?
        public var e: String?
        public var kid: String
        public var alg: String
        public var use: String

        /// A P-256 key.
        public init(kty: String, crv: String, x: String, y: String, kid: String, alg: String, use: String) {
            self.kty = kty
            self.crv = crv
            self.x = x
            self.y = y
            self.kid = kid
            self.alg = alg
            self.use = use
        }

        /// An RSA key.
        public init(n: String, e: String, kid: String, alg: String, use: String) {
            self.kty = "RSA"
            self.n = n
            self.e = e
            self.kid = kid
            self.alg = alg
            self.use = use
        }
    }

    public var keys: [Key]

    public init(keys: [Key]) {
        self.keys = keys
    }
}
