import Foundation
import JWTKit
import TouchstoneProtocol

extension DevicePublicKey {
    /// Signs claims as a compact JWS whose signature is made elsewhere (secure hardware such as Apple's Secure
    /// Enclave): `alg` of this key, `kid` its thumbprint, `typ` of the claims, as ``DeviceSigningKey/sign(_:)``
    /// writes them.
    /// - Parameter signature: the JWS signature of the signing input (ES256: ECDSA P-256 over its SHA-256, r‖s).
    /// - Throws: whatever `signature` throws, unchanged; ``KeyError`` when the signature does not verify with this
    ///   key.
    public func signedToken<Claims: DeviceTokenClaims>(
        _ claims: Claims, signature: @Sendable (_ signingInput: [UInt8]) async throws -> [UInt8]
    ) async throws -> String {
        let serializer = DefaultJWTSerializer()
        var header: JWTHeader = ["typ": .string(Claims.tokenType.rawValue)]
        header.alg = algorithm.rawValue
        header.kid = thumbprint
        let encodedHeader = Base64URL.encode(try serializer.jsonEncoder.encode(header))
        let encodedPayload = try serializer.serialize(DeviceTokenPayload(claims), header: header)
        let signingInput = Array(encodedHeader.utf8) + [UInt8(ascii: ".")] + Array(encodedPayload)
        let signed = try await signature(signingInput)
        guard isValidSignature(signed, for: signingInput) else {
            throw KeyError("the signature made for this key does not verify with it")
        }
        return String(decoding: signingInput, as: UTF8.self) + "." + Base64URL.encode(signed)
    }
}
