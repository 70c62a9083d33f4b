import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol

/// The claims of a JWT, read without verifying: for inspecting tokens the server issued.
func jwtClaims(_ token: String) throws -> [String: Any] {
    let parts = token.split(separator: ".").map(String.init)
    try #require(parts.count == 3)
    let payload = try #require(Base64URL.decode(parts[1]))
    return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
}

/// The claims of a device-signed token, verified with `key` (signature, header, `iss`, `aud`) as of the moment it
/// was signed: a test may outlast a token's minute.
func verifiedClaims<Claims: DeviceTokenClaims>(
    _ token: String, as type: Claims.Type, by key: DevicePublicKey, issuer: String, audience: URL
) throws -> Claims {
    let signedAt = try #require(try jwtClaims(token)["iat"] as? NSNumber).doubleValue
    return try key.verify(
        UnverifiedDeviceToken(token), as: type, issuer: issuer, rules: DeviceTokenRules(audience: audience.absoluteString),
        now: Date(timeIntervalSince1970: signedAt))
}
