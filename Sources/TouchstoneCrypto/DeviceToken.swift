import Foundation
import TouchstoneProtocol

/// A device-signed compact JWS before its signature is checked: only routing information may be read from it.
public struct UnverifiedDeviceToken: Sendable {
    /// The token as received.
    public var compact: String { jws.compact }
    /// `kid` from the protected header: which registered key claims to have signed.
    public let kid: String
    /// `iss` from the payload: the device (or enrolment) that claims to have signed.
    public let issuer: String
    /// The token split and its header decoded once, for ``DevicePublicKey/verify(_:as:issuer:rules:now:)``.
    let jws: CompactJWS

    /// Splits a compact JWS and reads `kid` and `iss`; nothing here is trusted yet.
    /// - Throws: ``DeviceTokenError`` when the text is not a compact JWS with those members.
    public init(_ compact: String) throws {
        let refused = DeviceTokenError("not a compact JWS with kid and iss")
        let jws: CompactJWS
        do {
            jws = try CompactJWS(compact)
        } catch {
            throw refused
        }
        guard let kid = jws.header.kid, let payload = try? jws.unverifiedClaims(as: Issuer.self) else { throw refused }
        self.jws = jws
        self.kid = kid
        self.issuer = payload.iss
    }

    /// SHA-256 of what was signed (`header.payload`), base64url: what the server keeps to accept a token only once.
    ///
    /// The signature is left out on purpose: one signed content has several valid signature spellings (ECDSA's
    /// s and n − s, base64url padding or spare bits), and each must count as the same, already used, token.
    public var digest: String { jws.digest }

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
    /// Verifies a device-signed token with this key and checks its header and claims, through ``CompactJWS``.
    ///
    /// `kid` must be this key's thumbprint; then `crit` is refused, `typ` must be the claims' and `alg` this key's;
    /// the signature; then `iss`, `aud`, `iat` and `exp` (``DeviceTokenEnvelope``).
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
        let expectations = DeviceTokenExpectations(
            issuer: issuer, rules: rules, now: Int64(now.timeIntervalSince1970.rounded(.down)))
        do {
            return try token.jws.verify(
                as: DeviceTokenEnvelope<Claims>.self, with: try JWSKey(self), expecting: expectations
            ).claims
        } catch let error as JWSError {
            throw DeviceTokenError(error.description)
        }
    }
}

/// What a device-signed token's claims are checked against.
public struct DeviceTokenExpectations: Sendable {
    /// The device or enrolment id `iss` must name.
    public var issuer: String
    public var rules: DeviceTokenRules
    /// The current time, NumericDate.
    public var now: Int64
}

/// The claims of a device-signed token of kind `Claims`, with the rules every one of them must pass (PROTOCOL
/// "Device-signed tokens"): `typ` of the kind, `iss` the device, `aud` this server, `exp - iat` at most 120 s, `iat`
/// at most 30 s ahead, `exp` not passed.
public struct DeviceTokenEnvelope<Claims: DeviceTokenClaims>: JWSClaims {
    public let claims: Claims

    public static var requiredType: String? { Claims.tokenType.rawValue }

    public init(from decoder: any Decoder) throws {
        claims = try Claims(from: decoder)
    }

    public func verify(_ expected: DeviceTokenExpectations) throws {
        guard claims.iss == expected.issuer else { throw JWSError("iss does not match") }
        guard claims.aud == expected.rules.audience else { throw JWSError("aud is not this server") }
        guard claims.exp > claims.iat, claims.exp - claims.iat <= expected.rules.maximumLifetime else {
            throw JWSError("exp - iat out of range")
        }
        guard claims.iat <= expected.now + expected.rules.clockSkew else { throw JWSError("iat in the future") }
        guard expected.now < claims.exp else { throw JWSError("expired") }
    }
}

/// Why a device-signed token was refused. The reason is for the log; clients see only the protocol code.
public struct DeviceTokenError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
