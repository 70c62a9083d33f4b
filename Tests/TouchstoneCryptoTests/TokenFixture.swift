import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

/// A device key plus the fixed clock, audience and issuer that the token tests verify against.
struct TokenFixture: Sendable {
    static let audience = "http://localhost:8080"
    static let issuer = "enr_0123456789"
    static let nowSeconds: Int64 = 1_800_000_000
    static let now = Date(timeIntervalSince1970: TimeInterval(nowSeconds))
    static let rules = DeviceTokenRules(audience: audience)

    let key: DeviceSigningKey

    init(_ algorithm: TestDevice.Algorithm = .p256) async throws {
        key = try await TestDevice.key(algorithm)
    }

    init(key: DeviceSigningKey) {
        self.key = key
    }

    var algorithm: String { key.publicKey.algorithm.rawValue }

    /// Proof claims that pass every rule at ``now`` unless a parameter says otherwise.
    static func claims(
        iat: Int64 = nowSeconds, exp: Int64? = nil, aud: String = audience, iss: String = issuer,
        nonce: String = "Y2hhbGxlbmdlLWNoYWxsZW5nZS1jaGFsbGVuZ2UtMDE"
    ) -> ProofClaims {
        ProofClaims(iss: iss, aud: aud, iat: iat, exp: exp ?? iat + 60, nonce: nonce)
    }

    /// The header a correct proof token carries: this key's alg, its thumbprint as kid, the proof typ.
    var header: JOSEHeader {
        JOSEHeader(alg: algorithm, kid: key.publicKey.thumbprint, typ: DeviceTokenType.proof.rawValue)
    }

    /// A compact JWS built by hand and signed with `signer`'s own algorithm (by default this fixture's key).
    func forge(
        _ header: JOSEHeader? = nil, claims: ProofClaims = claims(), signedBy signer: DeviceSigningKey? = nil
    ) throws -> String {
        let material = (signer ?? key).material
        return try CompactJWS.make(header: (header ?? self.header).json, payload: CompactJWS.payload(claims)) {
            try CompactJWS.signature(material, over: $0)
        }
    }

    /// Splits `compact` as the server does, outside any expectation of a refusal: a token that is refused only
    /// because it is malformed fails the test instead of passing it.
    func split(_ compact: String) throws -> UnverifiedDeviceToken {
        try UnverifiedDeviceToken(compact)
    }

    /// Verifies a split token with this key, as the server does.
    func verify(_ token: UnverifiedDeviceToken, issuer: String = issuer, rules: DeviceTokenRules = rules, now: Date = now)
        throws -> ProofClaims
    {
        try key.publicKey.verify(token, as: ProofClaims.self, issuer: issuer, rules: rules, now: now)
    }

    /// Verifies as the server does: split, then verify with this key.
    func verify(_ compact: String, issuer: String = issuer, rules: DeviceTokenRules = rules, now: Date = now)
        throws -> ProofClaims
    {
        try verify(try split(compact), issuer: issuer, rules: rules, now: now)
    }

    /// Expects `compact` to split as a device token and then to be refused by `verify`.
    func expectRefused(
        _ compact: String, issuer: String = issuer, rules: DeviceTokenRules = rules, now: Date = now,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let token = try split(compact)
        #expect(throws: DeviceTokenError.self, sourceLocation: sourceLocation) {
            try verify(token, issuer: issuer, rules: rules, now: now)
        }
    }

    /// Expects `compact` to verify and to yield `claims`.
    func expectAccepted(
        _ compact: String, claims: ProofClaims, now: Date = now, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try verify(compact, now: now) == claims, sourceLocation: sourceLocation)
    }
}
