import Crypto
import Foundation
import TouchstoneProtocol

/// A device-signed compact JWS before its signature is checked: only routing information may be read from it.
public struct UnverifiedDeviceToken: Sendable {
    /// The token as received.
    public let compact: String
    /// `kid` from the protected header: which registered key claims to have signed.
    public let kid: String
    /// `iss` from the payload: the device (or enrolment) that claims to have signed.
    public let issuer: String
    private let signingInputEnd: String.Index
    /// The protected header as decoded here, so that verification does not decode it again.
    let header: Header
    /// The payload's bytes, decoded from base64url here, so that verification does not decode them again.
    let payload: Data

    /// Splits a compact JWS and reads `kid` and `iss`; nothing here is trusted yet.
    /// - Throws: ``DeviceTokenError`` when the text is not a compact JWS with those members.
    public init(_ compact: String) throws {
        // The three parts are found on the UTF-8 view: splitting the String itself would break it into Characters.
        let utf8 = compact.utf8
        let dot = UInt8(ascii: ".")
        guard utf8.count <= 16_384, let firstDot = utf8.firstIndex(of: dot), let lastDot = utf8.lastIndex(of: dot),
            firstDot < lastDot,
            !utf8[utf8.index(after: firstDot)..<lastDot].contains(dot),
            let headerData = Base64URL.decode(String(compact[..<firstDot])),
            let payloadData = Base64URL.decode(String(compact[utf8.index(after: firstDot)..<lastDot])),
            let header = try? JSONDecoder().decode(Header.self, from: headerData),
            let payload = try? JSONDecoder().decode(Issuer.self, from: payloadData)
        else {
            throw DeviceTokenError("not a compact JWS with kid and iss")
        }
        self.compact = compact
        self.signingInputEnd = lastDot
        self.kid = header.kid
        self.issuer = payload.iss
        self.header = header
        self.payload = payloadData
    }

    /// What was signed: `header.payload` as sent.
    var signingInput: [UInt8] { Array(compact.utf8[..<signingInputEnd]) }

    /// The signature's bytes; `nil` when the third part is not base64url.
    var signature: [UInt8]? {
        Base64URL.decode(String(compact[compact.utf8.index(after: signingInputEnd)...])).map { [UInt8]($0) }
    }

    /// SHA-256 of what was signed (`header.payload`), base64url: what the server keeps to accept a token only once.
    ///
    /// The signature is left out on purpose: one signed content has several valid signature spellings (ECDSA's
    /// s and n − s, base64url padding or spare bits), and each must count as the same, already used, token.
    public var digest: String { SecretDigest.sha256(String(compact[..<signingInputEnd])) }

    /// The members of the protected header the server reads. Only `kid` must be readable to route the token;
    /// the others are judged at verification (a mistyped `alg` or `typ` reads as absent, and fails there).
    struct Header: Decodable, Sendable {
        let kid: String
        let alg: String?
        let typ: String?
        /// Whether `crit` is present and not null (whatever its type): such a token is refused.
        let hasCrit: Bool

        private enum CodingKeys: String, CodingKey {
            case kid, alg, typ, crit
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kid = try container.decode(String.self, forKey: .kid)
            alg = try? container.decodeIfPresent(String.self, forKey: .alg)
            typ = try? container.decodeIfPresent(String.self, forKey: .typ)
            hasCrit = try container.contains(.crit) && !container.decodeNil(forKey: .crit)
        }
    }

    private struct Issuer: Decodable {
        let iss: String
    }
}

/// Checks the rules every device-signed token must pass.
public struct DeviceTokenRules: Sendable {
    /// The server's ISSUER, the only accepted `aud`.
    public var audience: String
    /// Longest allowed `exp - iat`.
    public var maximumLifetime: Int64 = 120
    /// How far in the future `iat` may be.
    public var clockSkew: Int64 = 30

    public init(audience: String) {
        self.audience = audience
    }
}

extension DevicePublicKey {
    /// Verifies a device-signed token with this key and checks its header and claims.
    ///
    /// The signature is checked first, with this key's algorithm only; then `alg`, `typ`, `kid`, `iss`, `aud`,
    /// `iat` and `exp`.
    /// - Parameters:
    ///   - token: the token, as split by ``UnverifiedDeviceToken``.
    ///   - issuer: the device or enrolment id the token must name in `iss`.
    ///   - rules: the audience and time limits.
    ///   - now: the current time.
    /// - Throws: ``DeviceTokenError`` with the reason (for logs, never for the client).
    /// - ⚠️ A token that verifies must still be spent before it has any effect: recorded as used, or the challenge it
    ///   answers consumed.
    public func verify<Claims: DeviceTokenClaims>(
        _ token: UnverifiedDeviceToken, as _: Claims.Type, issuer: String, rules: DeviceTokenRules, now: Date
    ) throws -> Claims {
        guard token.kid == thumbprint else { throw DeviceTokenError("kid does not name this key") }
        guard let signature = token.signature, isValidSignature(signature, for: token.signingInput) else {
            throw DeviceTokenError("signature rejected")
        }
        let claims: Claims
        do {
            claims = try JSONDecoder().decode(Claims.self, from: token.payload)
        } catch {
            throw DeviceTokenError("payload rejected: \(error)")
        }
        try checkHeader(of: token, expecting: Claims.tokenType)
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        guard claims.iss == issuer else { throw DeviceTokenError("iss does not match") }
        guard claims.aud == rules.audience else { throw DeviceTokenError("aud is not this server") }
        guard claims.exp > claims.iat, claims.exp - claims.iat <= rules.maximumLifetime else {
            throw DeviceTokenError("exp - iat out of range")
        }
        guard claims.iat <= nowSeconds + rules.clockSkew else { throw DeviceTokenError("iat in the future") }
        guard nowSeconds < claims.exp else { throw DeviceTokenError("expired") }
        return claims
    }

    private func checkHeader(of token: UnverifiedDeviceToken, expecting type: DeviceTokenType) throws {
        let header = token.header
        guard header.alg == algorithm.rawValue else { throw DeviceTokenError("alg differs from the key's") }
        guard header.typ == type.rawValue else { throw DeviceTokenError("typ is not \(type.rawValue)") }
        guard !header.hasCrit else { throw DeviceTokenError("crit is not supported") }
    }
}

/// Why a device-signed token was refused. The reason is for the log; clients see only the protocol code.
public struct DeviceTokenError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
