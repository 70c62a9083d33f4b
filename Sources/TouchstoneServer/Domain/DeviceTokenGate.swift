import Foundation
import Logging
import TouchstoneCrypto
import TouchstoneProtocol

/// Verifies device-signed tokens with a registered key and accepts each verified token only once.
struct DeviceTokenGate: Sendable {
    let environment: ServiceEnvironment

    /// Verifies `token` with `key`, then records it as used.
    /// - Parameters:
    ///   - issuer: the device or enrolment the token must name.
    ///   - invalid: thrown when verification fails (detail goes to the log only).
    ///   - replayed: thrown when a verified token comes a second time.
    ///   - check: claim rules of this use, applied before the token is recorded (a failure throws `invalid`).
    func accept<Claims: DeviceTokenClaims>(
        _ token: UnverifiedDeviceToken, key: DevicePublicKey, as type: Claims.Type, issuer: String,
        invalid: ProblemError, replayed: ProblemError, check: (Claims) -> Bool = { _ in true }
    ) async throws -> Claims {
        let claims = try verify(token, key: key, as: type, issuer: issuer, invalid: invalid, check: check)
        let first = try await environment.store.recordUsedToken(
            digest: token.digest, expiresAt: Date(timeIntervalSince1970: TimeInterval(claims.exp)))
        guard first else { throw replayed }
        return claims
    }

    /// Verifies `token` with `key` and applies `check`, without recording it.
    /// - ⚠️ The caller must spend the token before it has any effect: record it as used
    ///   (``TouchstoneStore/recordUsedToken(digest:expiresAt:)``), or consume the challenge it answers
    ///   (``TouchstoneStore/commitLogin(_:)``).
    func verify<Claims: DeviceTokenClaims>(
        _ token: UnverifiedDeviceToken, key: DevicePublicKey, as type: Claims.Type, issuer: String,
        invalid: ProblemError, check: (Claims) -> Bool = { _ in true }
    ) throws -> Claims {
        let claims: Claims
        do {
            claims = try key.verify(
                token, as: type, issuer: issuer, rules: environment.tokenRules, now: environment.clock.now())
        } catch {
            environment.logger.info(
                "device token refused", metadata: ["issuer": .string(issuer), "reason": .string("\(error)")])
            throw invalid
        }
        guard check(claims) else { throw invalid }
        return claims
    }

    /// Parses a token's routing members, or throws `invalid`.
    static func parse(_ compact: String, invalid: ProblemError) throws -> UnverifiedDeviceToken {
        do {
            return try UnverifiedDeviceToken(compact)
        } catch {
            throw invalid
        }
    }
}
