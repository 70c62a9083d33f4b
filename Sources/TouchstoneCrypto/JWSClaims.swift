/// The claims of a kind of compact JWS, with the checks they must pass once the signature verifies.
///
/// ``CompactJWS/verify(as:with:expecting:)`` decodes them and calls ``verify(_:)``: there is no way to read verified
/// claims that skips it.
public protocol JWSClaims: Decodable, Sendable {
    /// What the checks compare the claims with (the audience, the time, the request…).
    associatedtype Expectations: Sendable
    /// The `typ` header this kind of token must carry; `nil` when any (or none) is accepted.
    static var requiredType: String? { get }
    /// Checks the claims.
    /// - Throws: ``JWSError`` with the reason.
    func verify(_ expectations: Expectations) throws
}
