import TouchstoneCrypto
import TouchstoneProtocol

/// A private key on the device that signs device tokens; its private half may never leave secure hardware.
public protocol DeviceKey: Sendable {
    /// The public key, as registered with the server.
    var publicKey: DevicePublicKey { get }
    /// Signs claims as a compact JWS with this key's algorithm.
    func sign<Claims: DeviceTokenClaims>(_ claims: Claims) async throws -> String
}

extension DeviceSigningKey: DeviceKey {}
