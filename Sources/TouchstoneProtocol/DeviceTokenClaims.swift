/// The `typ` header of each kind of device-signed token.
public enum DeviceTokenType: String, Sendable, CaseIterable {
    case proof = "touchstone-proof+jwt"
    case assertion = "touchstone-assertion+jwt"
    case decision = "touchstone-decision+jwt"
    case request = "touchstone-request+jwt"
}

/// Claims every device-signed token carries.
public protocol DeviceTokenClaims: Codable, Sendable {
    static var tokenType: DeviceTokenType { get }
    /// The device id (the enrolment id for proofs).
    var iss: String { get }
    /// The server's ISSUER.
    var aud: String { get }
    /// NumericDate.
    var iat: Int64 { get }
    /// NumericDate.
    var exp: Int64 { get }
}

/// `touchstone-proof+jwt`: each new key proves possession by signing the enrolment challenge.
public struct ProofClaims: DeviceTokenClaims, Equatable {
    public static let tokenType = DeviceTokenType.proof
    public var iss: String
    public var aud: String
    public var iat: Int64
    public var exp: Int64
    public var nonce: String

    public init(iss: String, aud: String, iat: Int64, exp: Int64, nonce: String) {
        self.iss = iss
        self.aud = aud
        self.iat = iat
        self.exp = exp
        self.nonce = nonce
    }
}

/// `touchstone-assertion+jwt`: a login, signed by the biometric key, or by the device key with `pin`.
public struct AssertionClaims: DeviceTokenClaims, Equatable {
    public static let tokenType = DeviceTokenType.assertion
    public var iss: String
    public var aud: String
    public var iat: Int64
    public var exp: Int64
    public var nonce: String
    public var dfp: String
    public var compromised: Bool?
    public var pin: String?

    public init(
        iss: String, aud: String, iat: Int64, exp: Int64, nonce: String, dfp: String, compromised: Bool? = nil,
        pin: String? = nil
    ) {
        self.iss = iss
        self.aud = aud
        self.iat = iat
        self.exp = exp
        self.nonce = nonce
        self.dfp = dfp
        self.compromised = compromised
        self.pin = pin
    }
}

/// `touchstone-request+jwt`: the device key signs one HTTP request (`Authorization: TouchstoneDevice <jws>`).
public struct RequestClaims: DeviceTokenClaims, Equatable {
    public static let tokenType = DeviceTokenType.request
    public var iss: String
    public var aud: String
    public var iat: Int64
    public var exp: Int64
    public var jti: String
    public var htm: String
    public var htu: String

    public init(iss: String, aud: String, iat: Int64, exp: Int64, jti: String, htm: String, htu: String) {
        self.iss = iss
        self.aud = aud
        self.iat = iat
        self.exp = exp
        self.jti = jti
        self.htm = htm
        self.htu = htu
    }
}
