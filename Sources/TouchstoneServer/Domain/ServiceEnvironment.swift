import Foundation
import Logging
import TouchstoneCrypto

/// What every domain service shares: the store, the clock, the settings and the server's keys.
struct ServiceEnvironment: Sendable {
    let store: any TouchstoneStore
    let clock: any WallClock
    let settings: ServerSettings
    let hasher: PasswordHasher
    let signer: TokenSigner
    let logger: Logger
    /// Parsed device keys, shared by every copy of this environment.
    let deviceKeys = DeviceKeyCache()

    var auditor: Auditor { Auditor(store: store, clock: clock, logger: logger) }
    var throttle: PasswordThrottle { PasswordThrottle(store: store, clock: clock) }
    var tokenRules: DeviceTokenRules { DeviceTokenRules(audience: settings.issuer) }

    /// The app with this client id, or 404 `app_not_found`.
    func app(_ clientId: String) async throws -> AppRecord {
        guard let app = try await store.app(clientId: clientId) else { throw ProblemError.appNotFound }
        return app
    }

    /// The app of an API key, or 401.
    func app(forAPIKey key: String) async throws -> AppRecord {
        guard let clientId = try await store.apiKeyClientId(hash: SecretDigest.sha256(key)),
            let app = try await store.app(clientId: clientId)
        else { throw ProblemError(401, .unauthorized, "A valid API key is required.") }
        return app
    }

    /// A new identifier that sorts by creation time: a version 7 UUID (RFC 9562 §5.7), lower-case, with 74 random
    /// bits after the millisecond. For rows written on every login (sessions, audit events), so that their primary
    /// keys are appended to the end of the index instead of landing on a random page each. It shows when the row was
    /// made, so it is not for rows whose id is shown to others (users, devices).
    static func newTimeOrderedID(at now: Date) -> String {
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        return uuid(version: 7) { raw in
            for index in 0..<6 {
                raw[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index)))
            }
        }
    }

    /// A new opaque identifier: a random (version 4) UUID, lower-case.
    static func newID() -> String {
        uuid(version: 4) { _ in }
    }

    /// A UUID of `version` and the RFC 9562 variant over random bytes, after `stamp` has set some of them.
    private static func uuid(version: UInt8, stamp: (UnsafeMutableRawBufferPointer) -> Void) -> String {
        // From the system's generator directly: Foundation's UUID() opens, reads and closes /dev/urandom each time here.
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            stamp(raw)
            raw[6] = raw[6] & 0x0F | version << 4
            raw[8] = raw[8] & 0x3F | 0x80  // RFC 9562 variant
            return UUID(uuid: raw.load(as: uuid_t.self)).uuidString.lowercased()
        }
    }
}
