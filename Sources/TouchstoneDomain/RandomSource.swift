import Foundation
import TouchstoneProtocol

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

    /// A new opaque identifier: a random (version 4) UUID, lower-case.
    package func recordID() -> String {
        uuid(version: 4, bytes(16))
    }

    /// A new identifier that sorts by `now`: a version 7 UUID, the Unix time in milliseconds in its first 48 bits and
    /// random bits after them. For rows written on every login (sessions), so that their primary keys are appended to
    /// the end of the index; it shows when the row was made, so it is not for rows whose id is shown to others.
    package func timeOrderedID(at now: Date) -> String {
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        var raw = bytes(16)
        for index in 0..<6 {
            raw[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index)))
        }
        return uuid(version: 7, raw)
    }

    /// The UUID of `version` and the RFC 9562 variant over 16 bytes, lower-case.
    private func uuid(version: UInt8, _ bytes: [UInt8]) -> String {
        var raw = bytes
        raw[6] = raw[6] & 0x0F | version << 4
        raw[8] = raw[8] & 0x3F | 0x80  // RFC 9562 variant
        let uuid = UUID(
            uuid: (
                raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10], raw[11],
                raw[12], raw[13], raw[14], raw[15]
            ))
        return uuid.uuidString.lowercased()
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
