import Crypto
import Foundation

/// The machine's single-core P-256 verify rate: swift-crypto's ECDSA verification in a tight loop on one thread,
/// over a message the size of a login assertion's signing input (so SHA-256 is included, as on the server).
public enum VerifyRate {
    /// Verifications per second, measured for about `duration`.
    public static func measure(for duration: Duration = .seconds(2)) throws -> Double {
        let key = P256.Signing.PrivateKey()
        let message = Array(repeating: UInt8(ascii: "e"), count: 420)
        let signature = try key.signature(for: message)
        let publicKey = key.publicKey
        let clock = ContinuousClock()
        let start = clock.now
        var verified = 0
        var elapsed = Duration.zero
        repeat {
            for _ in 0..<64 where publicKey.isValidSignature(signature, for: message) {
                verified += 1
            }
            elapsed = clock.now - start
        } while elapsed < duration
        guard verified > 0 else { throw BenchError("the P-256 signature made for the verify loop did not verify") }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(verified) / seconds
    }
}
