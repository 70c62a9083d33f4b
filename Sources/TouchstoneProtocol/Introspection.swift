/// `POST /v1/introspect` body.
public struct IntrospectionRequest: Codable, Sendable {
    public var token: String

    public init(token: String) {
        self.token = token
    }
}

/// `POST /v1/introspect` answer; every member but `active` is absent when inactive.
public struct IntrospectionResult: Codable, Sendable, Equatable {
    public var active: Bool
    public var sub: String?
    public var aud: String?
    public var did: String?
    public var amr: [AuthenticationMethod]?
    public var acr: AssuranceLevel?
    public var scope: String?
    public var exp: Int?
    /// The key the token is bound to (RFC 7800 `cnf`; RFC 9449 §6.2): a DPoP key, or a device session's device key.
    public var cnf: Confirmation?

    /// `cnf`: the RFC 7638 thumbprint of the key a token is bound to.
    public struct Confirmation: Codable, Sendable, Equatable {
        public var jkt: String

        public init(jkt: String) {
            self.jkt = jkt
        }
    }

    public static let inactive = IntrospectionResult(active: false)

    public init(
        active: Bool, sub: String? = nil, aud: String? = nil, did: String? = nil, amr: [AuthenticationMethod]? = nil,
        acr: AssuranceLevel? = nil, scope: String? = nil, exp: Int? = nil, cnf: Confirmation? = nil
    ) {
        self.active = active
        self.sub = sub
        self.aud = aud
        self.did = did
        self.amr = amr
        self.acr = acr
        self.scope = scope
        self.exp = exp
        self.cnf = cnf
    }
}
