import Foundation
import Logging
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The one way a device-signed token is accepted: verified with a key its device registered (``verify(_:key:as:issuer:invalid:)``),
/// its use checked by the claim type's own rule (`verify(…)` on the claims), then spent once (``spend(_:replayed:)``:
/// its digest is kept until it expires, and a second spend is a replay).
///
/// A login assertion is the one token spent otherwise: by consuming the challenge it answers, in the login
/// transaction (``LoginCommit``), so that no digest of it need be kept.
struct DeviceTokenGate: Sendable {
    /// Where spent tokens are kept.
    let store: any ChallengeStore
    let clock: any WallClock
    /// The audience every device token must name.
    let rules: DeviceTokenRules
    let logger: Logger

    /// A token whose signature and claims verified, not spent yet: it has no effect until it is.
    struct Verified<Claims: DeviceTokenClaims>: Sendable {
        package let claims: Claims
        /// SHA-256 of the compact token, as recorded when spent.
        package let digest: String
    }

    /// Verifies `token` with `key`: signature, `typ`, audience, issuer and lifetime.
    /// - Parameters:
    ///   - issuer: the device or enrolment the token must name.
    ///   - invalid: thrown when verification fails (detail goes to the log only).
    package func verify<Claims: DeviceTokenClaims>(
        _ token: UnverifiedDeviceToken, key: DevicePublicKey, as type: Claims.Type, issuer: String, invalid: ProblemError
    ) throws -> Verified<Claims> {
        do {
            let claims = try key.verify(
                token, as: type, issuer: issuer, rules: rules, now: clock.now())
            return Verified(claims: claims, digest: token.digest)
        } catch {
            logger.info(
                "device token refused", metadata: ["issuer": .string(issuer), "reason": .string("\(error)")])
            throw invalid
        }
    }

    /// Spends verified tokens: each is recorded as used until it expires.
    /// - Throws: `replayed` when one was spent before (those before it in `tokens` stay spent).
    func spend<Claims>(_ tokens: [Verified<Claims>], replayed: ProblemError) async throws {
        for token in tokens {
            try await spend(digest: token.digest, until: token.claims.exp, replayed: replayed)
        }
    }

    /// Spends a verified token.
    func spend<Claims>(_ token: Verified<Claims>, replayed: ProblemError) async throws {
        try await spend([token], replayed: replayed)
    }

    /// Spends the verified token with this digest (a legacy TouchIDAuth JWT, which is not a device token of ours).
    func spend(digest: String, until expiry: Int64, replayed: ProblemError) async throws {
        let first = try await store.recordUsedToken(
            digest: digest, expiresAt: Date(timeIntervalSince1970: TimeInterval(expiry)))
        guard first else { throw replayed }
    }

    /// Parses a token's routing members, or throws `invalid`.
    package static func parse(_ compact: String, invalid: ProblemError) throws -> UnverifiedDeviceToken {
        do {
            return try UnverifiedDeviceToken(compact)
        } catch {
            throw invalid
        }
    }
}
