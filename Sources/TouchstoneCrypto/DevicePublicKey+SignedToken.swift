import Foundation
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
        try await CompactJWS.serialize(
            encodedHeader: try encodedHeader(for: Claims.self), payload: Array(try JSONEncoder().encode(claims))
        ) { signingInput in
            let signed = try await signature(signingInput)
            guard isValidSignature(signed, for: signingInput) else {
                throw KeyError("the signature made for this key does not verify with it")
            }
            return signed
        }
    }
}

extension DevicePublicKey {
    /// The header of a device token of `Claims` signed by this key: its algorithm, its thumbprint as `kid`, the claims'
    /// `typ`.
    func encodedHeader<Claims: DeviceTokenClaims>(for _: Claims.Type) throws -> [UInt8] {
        try CompactJWS.encodedHeader(alg: algorithm.rawValue, kid: thumbprint, typ: Claims.tokenType.rawValue)
    }
}
