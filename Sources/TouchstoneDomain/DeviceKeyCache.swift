import Synchronization
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// Parsed device public keys by their JWK, so that a login does not parse and validate the same key again.
///
/// It caches only immutable key material: the entry for a JWK is the verifier of exactly that JWK. Which key a
/// device may sign with is still read from the device's row on every use, so a revoked device, or a biometric key
/// removed by opt-out, is refused as before, on every instance at once.
final class DeviceKeyCache: Sendable {
    private let capacity: Int
    private let keys = Mutex<[PublicJWK: DevicePublicKey]>([:])

    /// - Parameter capacity: the most keys kept; beyond it, an arbitrary key makes room for each new one.
    package init(capacity: Int = 16_384) {
        self.capacity = capacity
    }

    /// The parsed key of `jwk`, parsed now when it is not cached.
    /// - Throws: ``KeyError`` when `jwk` is not a key enrolment accepts.
    package func key(for jwk: PublicJWK) throws -> DevicePublicKey {
        if let key = keys.withLock({ $0[jwk] }) { return key }
        let key = try DevicePublicKey(jwk: jwk)
        keys.withLock { keys in
            if keys.count >= capacity, let any = keys.keys.first {
                keys.removeValue(forKey: any)
            }
            keys[jwk] = key
        }
        return key
    }
}
