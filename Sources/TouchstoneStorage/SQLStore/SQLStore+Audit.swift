import Foundation
import SQLKit

extension SQLStore {
    package func audit(_ event: AuditEvent) async throws {
        try await provider.write { database in
            try await Self.insertAudit(event, in: database)
        }
    }

    static func insertAudit(_ event: AuditEvent, in database: any SQLDatabase) async throws {
        try await database.raw(
            "INSERT INTO audit_events (\(unsafeRaw: insertedAuditColumns)) VALUES (\(binds: auditValues(event)))"
        ).run()
    }

    /// The columns an audit event is stored in; ``auditValues(_:)`` gives their values in this order.
    static let insertedAuditColumns =
        "id, at_ms, event, outcome, user_id, device_id, client_id, ip, detail, request_id, user_agent, actor"

    /// The values of ``insertedAuditColumns`` for `event`.
    ///
    /// The row's id is the store's own (``RecordID/timeOrdered(at:)``, from the system's generator), not drawn from the
    /// services' random source: it is only the table's primary key, in time order for the index, never returned nor
    /// shown, and not a secret; no test has anything to pin in it.
    static func auditValues(_ event: AuditEvent) -> [any Encodable & Sendable] {
        [
            RecordID.timeOrdered(at: event.at), event.at.storedMilliseconds,
            event.event.rawValue, event.outcome.rawValue, event.userId, event.deviceId, event.clientId, event.ip, event.detail,
            event.requestId, event.userAgent, event.actor,
        ]
    }

    package func auditEvents(since: Date?, userId: String?) async throws -> [AuditEvent] {
        let sinceMilliseconds = since?.storedMilliseconds ?? 0
        return try await provider.read { database in
            let filter: SQLQueryString =
                userId.map { "AND user_id = \(bind: $0)" } ?? ""
            return try await database.raw(
                """
                SELECT at_ms, event, outcome, user_id, device_id, client_id, ip, detail, request_id, user_agent, actor
                FROM audit_events
                WHERE at_ms >= \(bind: sinceMilliseconds) \(filter) ORDER BY at_ms, id
                """
            ).all().map { row in
                AuditEvent(
                    at: Date(storedMilliseconds: try row.decode(column: "at_ms", as: Int64.self)),
                    event: AuditEventType(rawValue: try row.string("event")),
                    outcome: AuditOutcome(rawValue: try row.string("outcome")),
                    userId: try row.optionalString("user_id"), deviceId: try row.optionalString("device_id"),
                    clientId: try row.optionalString("client_id"), ip: try row.optionalString("ip"),
                    detail: try row.optionalString("detail"), requestId: try row.optionalString("request_id"),
                    userAgent: try row.optionalString("user_agent"), actor: try row.optionalString("actor"))
            }
        }
    }
}
