import Foundation

/// Single-use challenges and the digests of spent device-signed tokens. Every method is atomic on its own.
package protocol ChallengeStore: Sendable {
    func createChallenge(_ challenge: String, subject: String, purpose: String, expiresAt: Date) async throws
    /// Deletes the challenge if it exists, is bound to this subject and purpose, and has not expired.
    func consumeChallenge(_ challenge: String, subject: String, purpose: String, now: Date) async throws -> Bool
    /// Whether the challenge exists, bound to this subject and purpose, unexpired (a hint: only consuming it counts).
    func challengeIsLive(_ challenge: String, subject: String, purpose: String, now: Date) async throws -> Bool
    /// Records a verified token's digest; `false` when it was recorded before (a replay).
    func recordUsedToken(digest: String, expiresAt: Date) async throws -> Bool
}
