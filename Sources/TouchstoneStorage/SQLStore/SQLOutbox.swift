import Foundation
import SQLKit

/// The claiming of one outbox table, the same code for every kind of message: the table has `id`, `due_ms`,
/// `attempts`, `claimed_by` and `claimed_until_ms` (milliseconds, as retries back off from one second); its kind says
/// which claimed rows are still wanted and reads them.
///
/// Each kind keeps its own table (its own columns, and foreign keys to what its messages are about), so that this code
/// is parameterised by the table rather than by a channel column.
struct SQLOutbox<Message: OutboxMessage>: OutboxQueue {
    let provider: any SQLDatabaseProvider
    /// The table's name: one of the store's constants, never input.
    let table: String
    /// Reads those of the claimed rows `ids` still wanted at `now`, inside the claim's transaction; the claimed rows it
    /// leaves out are deleted.
    let wanted: @Sendable (_ ids: [String], _ now: Date, _ database: any SQLDatabase) async throws -> [Message]

    func claimDue(claimant: String, now: Date, leaseUntil: Date, limit: Int) async throws -> [Message] {
        let nowMs = now.storedMilliseconds
        return try await provider.transaction { database in
            // Another instance's claims are skipped, not waited for (PostgreSQL; SQLite has one writer).
            let skipLocked = database.dialect.name == "postgresql" ? "FOR UPDATE SKIP LOCKED" : ""
            let claimed = try await database.raw(
                """
                UPDATE \(unsafeRaw: table) SET claimed_by = \(bind: claimant),
                    claimed_until_ms = \(bind: leaseUntil.storedMilliseconds)
                WHERE id IN (
                    SELECT id FROM \(unsafeRaw: table)
                    WHERE due_ms <= \(bind: nowMs) AND (claimed_until_ms IS NULL OR claimed_until_ms <= \(bind: nowMs))
                    ORDER BY due_ms, id LIMIT \(bind: limit) \(unsafeRaw: skipLocked))
                RETURNING id
                """
            ).all().map { try $0.string("id") }
            guard !claimed.isEmpty else { return [] }
            let messages = try await wanted(claimed, now, database)
            let unwanted = Set(claimed).subtracting(messages.map(\.id))
            if !unwanted.isEmpty {
                try await database.raw("DELETE FROM \(unsafeRaw: table) WHERE id IN (\(binds: Array(unwanted)))").run()
            }
            return messages
        }
    }

    func finish(id: String, claimant: String) async throws {
        try await provider.write { database in
            try await database.raw(
                "DELETE FROM \(unsafeRaw: table) WHERE id = \(bind: id) AND claimed_by = \(bind: claimant)"
            ).run()
        }
    }

    func retry(id: String, claimant: String, dueAt: Date) async throws {
        try await provider.write { database in
            try await database.raw(
                """
                UPDATE \(unsafeRaw: table) SET due_ms = \(bind: dueAt.storedMilliseconds), attempts = attempts + 1,
                    claimed_by = NULL, claimed_until_ms = NULL
                WHERE id = \(bind: id) AND claimed_by = \(bind: claimant)
                """
            ).run()
        }
    }

    func queuedCount() async throws -> Int {
        try await provider.read { database in
            try await database.raw("SELECT COUNT(*) AS queued FROM \(unsafeRaw: table)").first()?.int("queued") ?? 0
        }
    }
}
