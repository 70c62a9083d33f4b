import Foundation
import SQLKit

extension SQLStore {
    package func createChallenge(_ challenge: String, subject: String, purpose: String, expiresAt: Date) async throws {
        try await provider.write { database in
            try await database.raw(
                """
                INSERT INTO challenges (challenge, subject, purpose, expires_at)
                VALUES (\(bind: challenge), \(bind: subject), \(bind: purpose), \(bind: expiresAt.storedSeconds))
                """
            ).run()
        }
    }

    package func consumeChallenge(_ challenge: String, subject: String, purpose: String, now: Date) async throws -> Bool {
        try await provider.write { database in
            try await Self.consumeChallenge(challenge, subject: subject, purpose: purpose, now: now, in: database)
        }
    }

    package static func consumeChallenge(
        _ challenge: String, subject: String, purpose: String, now: Date, in database: any SQLDatabase
    ) async throws -> Bool {
        try await database.raw(
            """
            DELETE FROM challenges
            WHERE challenge = \(bind: challenge) AND subject = \(bind: subject) AND purpose = \(bind: purpose)
                AND expires_at > \(bind: now.storedSeconds)
            RETURNING challenge
            """
        ).first() != nil
    }

    package func challengeIsLive(_ challenge: String, subject: String, purpose: String, now: Date) async throws -> Bool {
        try await provider.read { database in
            try await database.raw(
                """
                SELECT 1 AS live FROM challenges
                WHERE challenge = \(bind: challenge) AND subject = \(bind: subject) AND purpose = \(bind: purpose)
                    AND expires_at > \(bind: now.storedSeconds)
                """
            ).first() != nil
        }
    }

    package func recordUsedToken(digest: String, expiresAt: Date) async throws -> Bool {
        try await provider.write { database in
            try await Self.recordUsedToken(digest: digest, expiresAt: expiresAt, in: database)
        }
    }

    package static func recordUsedToken(digest: String, expiresAt: Date, in database: any SQLDatabase) async throws -> Bool {
        try await database.raw(
            """
            INSERT INTO used_tokens (digest, expires_at) VALUES (\(bind: digest), \(bind: expiresAt.storedSeconds))
            ON CONFLICT (digest) DO NOTHING RETURNING digest
            """
        ).first() != nil
    }
}
