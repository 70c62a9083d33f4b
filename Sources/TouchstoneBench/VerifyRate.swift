import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The machine's single-core P-256 verify rate: swift-crypto's ECDSA verification in a tight loop on one thread,
/// over a message the size of a login assertion's signing input (so SHA-256 is included, as on the server).
///
/// The rate is per second of this thread's CPU time, not of the clock: the server's CPU per login is CPU time too, so
/// the two stay comparable on a shared machine, where another guest may hold the core for part of a second.
public enum VerifyRate {
    /// Verifications per second of CPU time, measured for about `duration` of it.
    public static func measure(for duration: Duration = .seconds(2)) throws -> Double {
        let key = P256.Signing.PrivateKey()
        let message = Array(repeating: UInt8(ascii: "e"), count: 420)
        let signature = try key.signature(for: message)
        let publicKey = key.publicKey
        let start = threadCPUTime()
        var verified = 0
        var elapsed = Duration.zero
        repeat {
            for _ in 0..<64 where publicKey.isValidSignature(signature, for: message) {
                verified += 1
            }
            elapsed = threadCPUTime() - start
        } while elapsed < duration
        guard verified > 0 else { throw BenchError("the P-256 signature made for the verify loop did not verify") }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(verified) / seconds
    }

    /// The CPU time the calling thread has used.
    private static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
