import Foundation
import Testing
import TouchstoneProtocol

/// The claims of a JWT, read without verifying: for inspecting tokens the server issued.
func jwtClaims(_ token: String) throws -> [String: Any] {
    let parts = token.split(separator: ".").map(String.init)
    try #require(parts.count == 3)
    let payload = try #require(Base64URL.decode(parts[1]))
    return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
}
