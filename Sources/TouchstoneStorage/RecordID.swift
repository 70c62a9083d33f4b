import Foundation

/// The identifiers of stored rows.
package enum RecordID {
    /// A new identifier that sorts by creation time: a version 7 UUID (RFC 9562 §5.7), lower-case, with 74 random
    /// bits after the millisecond. For rows written on every login (sessions, audit events), so that their primary
    /// keys are appended to the end of the index instead of landing on a random page each. It shows when the row was
    /// made, so it is not for rows whose id is shown to others (users, devices).
    package static func timeOrdered(at now: Date) -> String {
        timeOrdered(at: now, randomBits: systemRandomBits())
    }

    /// ``timeOrdered(at:)`` over `randomBits` (128 bits, of which the time and the version take some) rather than the
    /// system's generator: for an injected random source.
    package static func timeOrdered(at now: Date, randomBits: (UInt64, UInt64)) -> String {
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        return uuid(version: 7, randomBits) { raw in
            for index in 0..<6 {
                raw[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index)))
            }
        }
    }

    /// A new opaque identifier: a random (version 4) UUID, lower-case.
    package static func random() -> String {
        random(randomBits: systemRandomBits())
    }

    /// ``random()`` over `randomBits` rather than the system's generator: for an injected random source.
    package static func random(randomBits: (UInt64, UInt64)) -> String {
        uuid(version: 4, randomBits) { _ in }
    }

    /// 128 bits from the system's generator directly: Foundation's UUID() opens, reads and closes /dev/urandom each time
    /// here.
    private static func systemRandomBits() -> (UInt64, UInt64) {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }

    /// A UUID of `version` and the RFC 9562 variant over `bits`, after `stamp` has set some of them.
    private static func uuid(
        version: UInt8, _ bits: (UInt64, UInt64), stamp: (UnsafeMutableRawBufferPointer) -> Void
    ) -> String {
        var bytes = bits
        return withUnsafeMutableBytes(of: &bytes) { raw in
            stamp(raw)
            raw[6] = raw[6] & 0x0F | version << 4
            raw[8] = raw[8] & 0x3F | 0x80  // RFC 9562 variant
            return UUID(uuid: raw.load(as: uuid_t.self)).uuidString.lowercased()
        }
    }
}
