import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// Where the services' secrets and record ids come from (tokens, challenges, ids, number matching, WebAuthn
/// challenges), injected as the clock is, so that a test can pin them.
///
/// ⚠️ A server must use ``SystemRandom``: every token and challenge is only as unguessable as this source.
public protocol RandomSource: Sendable {
    /// Eight random bytes.
    func next() -> UInt64
}

extension RandomSource {
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        // Eight bytes per call, not one.
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: next()) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// A new secret: 32 random bytes, base64url (refresh tokens, challenges, poll secrets, codes).
    package func token() -> String {
        Base64URL.encode(bytes(32))
    }

    /// A new opaque identifier: a random (version 4) UUID, lower-case (``RecordID/random(randomBits:)``).
    package func recordID() -> String {
        RecordID.random(randomBits: (next(), next()))
    }

    /// A new identifier that sorts by `now`: a version 7 UUID (``RecordID/timeOrdered(at:randomBits:)``), for rows
    /// written on every login (sessions); it shows when the row was made, so it is not for rows whose id is shown to
    /// others.
    package func timeOrderedID(at now: Date) -> String {
        RecordID.timeOrdered(at: now, randomBits: (next(), next()))
    }
}

/// A ``RandomSource`` as the standard library's generator protocol, for its `random(in:using:)` and `shuffled(using:)`.
struct Generator: RandomNumberGenerator {
    let source: any RandomSource

    mutating func next() -> UInt64 { source.next() }
}

/// The system's secure generator.
public struct SystemRandom: RandomSource {
    public init() {}

    public func next() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}
