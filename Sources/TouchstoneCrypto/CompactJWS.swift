import Foundation
import TouchstoneProtocol

/// A compact JWS (RFC 7515 §7.1) before its signature is checked: only its header may be read, to find the key.
///
/// ``verify(as:with:expecting:)`` is the one way to its claims: header rules, the key's algorithm, the signature, then
/// the claims' own ``JWSClaims/verify(_:)``.
public struct CompactJWS: Sendable {
    /// The token as received.
    public let compact: String
    /// The protected header, as far as the rules read it.
    public let header: Header
    private let signingInputEnd: String.Index
    private let payload: Data

    /// The members of the protected header that the rules read. A mistyped `alg`, `typ` or `kid` reads as absent.
    public struct Header: Decodable, Sendable {
        public let alg: String?
        public let typ: String?
        public let kid: String?
        /// The public key the token carries (DPoP), for the caller's key lookup; a private member is kept so that the
        /// lookup refuses it.
        public let jwk: PublicJWK?
        /// Whether `crit` is present and not null (whatever its type): such a token is refused.
        let hasCrit: Bool

        private enum CodingKeys: String, CodingKey {
            case alg, typ, kid, jwk, crit
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            alg = try? container.decodeIfPresent(String.self, forKey: .alg)
            typ = try? container.decodeIfPresent(String.self, forKey: .typ)
            kid = try? container.decodeIfPresent(String.self, forKey: .kid)
            jwk = try? container.decodeIfPresent(PublicJWK.self, forKey: .jwk)
            hasCrit = try container.contains(.crit) && !container.decodeNil(forKey: .crit)
        }
    }

    /// Splits a compact JWS and decodes its header; nothing is trusted yet.
    /// - Throws: ``JWSError`` when the text is not three base64url parts whose first is a JSON object.
    public init(_ compact: String) throws {
        let utf8 = compact.utf8
        let dot = UInt8(ascii: ".")
        guard utf8.count <= 16_384, let firstDot = utf8.firstIndex(of: dot), let lastDot = utf8.lastIndex(of: dot),
            firstDot < lastDot, !utf8[utf8.index(after: firstDot)..<lastDot].contains(dot),
            let headerData = Base64URL.decode(String(compact[..<firstDot])),
            let payload = Base64URL.decode(String(compact[utf8.index(after: firstDot)..<lastDot])),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw JWSError("not a compact JWS") }
        self.compact = compact
        self.header = header
        self.signingInputEnd = lastDot
        self.payload = payload
    }

    /// SHA-256 of what was signed (`header.payload`), base64url: what a server keeps to accept a token once. The
    /// signature is left out: one signed content has several valid signature spellings.
    public var digest: String { SecretDigest.sha256(String(compact[..<signingInputEnd])) }

    /// The payload decoded without any check, only to find the key that verifies the token (a client assertion's `sub`).
    /// - ⚠️ Nothing read here is trusted: the claims are the ones ``verify(as:with:expecting:)`` returns.
    /// - Throws: when the payload does not decode as `type`.
    public func unverifiedClaims<Routing: Decodable>(as type: Routing.Type) throws -> Routing {
        try JSONDecoder().decode(type, from: payload)
    }

    /// Verifies the token with `key` and returns its claims once they pass their own checks.
    ///
    /// In order: `crit` is refused; `typ` must be the claims' when they require one; `alg` must be one `key` verifies
    /// (so never `none` or HMAC); the signature; the claims decode; ``JWSClaims/verify(_:)``.
    /// - ⚠️ Finding `key` from `kid` or `jwk` is the caller's: a key the token brings (DPoP) proves only that its holder
    ///   signed. A token that verifies must still be spent (its `jti` or digest recorded) before it has any effect.
    /// - Throws: ``JWSError`` with the reason (for logs, never for the client).
    public func verify<Claims: JWSClaims>(as _: Claims.Type, with key: JWSKey, expecting expectations: Claims.Expectations)
        throws -> Claims
    {
        guard !header.hasCrit else { throw JWSError("crit is not supported") }
        if let type = Claims.requiredType, header.typ != type { throw JWSError("typ is not \(type)") }
        guard let alg = header.alg.flatMap(JWSAlgorithm.init(rawValue:)), key.algorithms.contains(alg) else {
            throw JWSError("alg is not one this key verifies")
        }
        guard let signature = Base64URL.decode(String(compact[compact.utf8.index(after: signingInputEnd)...])),
            key.isValidSignature([UInt8](signature), for: Array(compact.utf8[..<signingInputEnd]), algorithm: alg)
        else { throw JWSError("signature rejected") }
        let claims: Claims
        do {
            claims = try JSONDecoder().decode(Claims.self, from: payload)
        } catch {
            throw JWSError("payload rejected: \(error)")
        }
        try claims.verify(expectations)
        return claims
    }

    /// Writes a compact JWS: `encodedHeader` (base64url of the header and the `.` after it), the payload, and the
    /// signature `sign` makes of the two. The one way Touchstone assembles the tokens it signs.
    /// - Throws: whatever `sign` throws.
    public static func serialize(
        encodedHeader: [UInt8], payload: [UInt8], sign: (_ signingInput: [UInt8]) throws -> [UInt8]
    ) rethrows -> String {
        let signingInput = encodedHeader + Array(Base64URL.encode(payload).utf8)
        let signature = try sign(signingInput)
        return String(decoding: signingInput, as: UTF8.self) + "." + Base64URL.encode(signature)
    }

    /// ``serialize(encodedHeader:payload:sign:)`` with a signature made elsewhere, asynchronously (a device's secure
    /// hardware).
    public static func serialize(
        encodedHeader: [UInt8], payload: [UInt8], sign: (_ signingInput: [UInt8]) async throws -> [UInt8]
    ) async rethrows -> String {
        let signingInput = encodedHeader + Array(Base64URL.encode(payload).utf8)
        let signature = try await sign(signingInput)
        return String(decoding: signingInput, as: UTF8.self) + "." + Base64URL.encode(signature)
    }

    /// The `encodedHeader` of ``serialize(encodedHeader:payload:sign:)``: base64url of `{alg, kid, typ}` and the `.`
    /// after it.
    public static func encodedHeader(alg: String, kid: String, typ: String) throws -> [UInt8] {
        struct Header: Encodable {
            let alg: String
            let kid: String
            let typ: String
        }
        return Array((Base64URL.encode(try JSONEncoder().encode(Header(alg: alg, kid: kid, typ: typ))) + ".").utf8)
    }
}
