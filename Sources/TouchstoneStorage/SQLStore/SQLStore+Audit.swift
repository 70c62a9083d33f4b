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
        "id, at_ms, event, outcome, user_id, device_id, client_id, ip, detail, request_id, user_agent, actor, actor_id, "
        + "actor_name"

    /// The values of ``insertedAuditColumns`` for `event`.
    ///
    /// The row's id is the store's own (``RecordID/timeOrdered(at:)``, from the system's generator), not drawn from the
    /// services' random source: it is the table's primary key, in time order for the index, and the event's stable id
    /// in the admin API's audit query (``AuditEvent/id``); not a secret, and no test has anything to pin in it.
    static func auditValues(_ event: AuditEvent) -> [any Encodable & Sendable] {
        [
            event.id ?? RecordID.timeOrdered(at: event.at), event.at.storedMilliseconds,
            event.event.rawValue, event.outcome.rawValue, event.userId, event.deviceId, event.clientId, event.ip, event.detail,
            event.requestId, event.userAgent, event.actor?.kind.rawValue, event.actor?.id, event.actor?.name,
        ]
    }

    package func auditEvents(since: Date?, userId: String?) async throws -> [AuditEvent] {
        let sinceMilliseconds = since?.storedMilliseconds ?? 0
        return try await provider.read { database in
            let filter: SQLQueryString =
                userId.map { "AND user_id = \(bind: $0)" } ?? ""
            return try await database.raw(
                """
                SELECT \(unsafeRaw: Self.readAuditColumns) FROM audit_events
                WHERE at_ms >= \(bind: sinceMilliseconds) \(filter) ORDER BY at_ms, id
                """
            ).all().map(Self.auditEvent)
        }
    }

    package func auditEvents(_ filter: AuditFilter, before position: AuditPosition?, limit: Int) async throws
        -> [AuditEvent]
    {
        var conditions: [SQLQueryString] = []
        if let userId = filter.userId { conditions.append("user_id = \(bind: userId)") }
        if let type = filter.type { conditions.append("event = \(bind: type.rawValue)") }
        if let since = filter.since { conditions.append("at_ms >= \(bind: since.storedMilliseconds)") }
        if let until = filter.until {
            // Exclusive: an event stored at a whole millisecond before `until` is in.
            conditions.append("at_ms < \(bind: Int64((until.timeIntervalSince1970 * 1000).rounded(.up)))")
        }
        if let position {
            conditions.append(
                """
                (at_ms < \(bind: position.milliseconds) OR (at_ms = \(bind: position.milliseconds) \
                AND id < \(bind: position.id)))
                """)
        }
        let clause: SQLQueryString =
            conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await provider.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.readAuditColumns) FROM audit_events \(clause)
                ORDER BY at_ms DESC, id DESC LIMIT \(bind: limit)
                """
            ).all().map(Self.auditEvent)
        }
    }

    /// The columns ``auditEvent(_:)`` reads.
    private static let readAuditColumns =
        "id, at_ms, event, outcome, user_id, device_id, client_id, ip, detail, request_id, user_agent, actor, actor_id, "
        + "actor_name"

    /// An event as stored; a row from before actors were recorded has none, one from before their ids and names has
    /// its kind alone.
    private static func auditEvent(_ row: any SQLRow) throws -> AuditEvent {
        let actor = try row.optionalString("actor").map { kind in
            AuditActor(
                kind: AuditActor.Kind(rawValue: kind), id: try row.optionalString("actor_id"),
                name: try row.optionalString("actor_name"))
        }
        return AuditEvent(
            id: try row.string("id"),
            at: Date(storedMilliseconds: try row.decode(column: "at_ms", as: Int64.self)),
            event: AuditEventType(rawValue: try row.string("event")),
            outcome: AuditOutcome(rawValue: try row.string("outcome")),
            userId: try row.optionalString("user_id"), deviceId: try row.optionalString("device_id"),
            clientId: try row.optionalString("client_id"), ip: try row.optionalString("ip"),
            detail: try row.optionalString("detail"), requestId: try row.optionalString("request_id"),
            userAgent: try row.optionalString("user_agent"), actor: actor)
    }
}
