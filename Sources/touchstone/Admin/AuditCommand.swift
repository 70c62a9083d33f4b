import ArgumentParser
import Foundation
import TouchstoneDomain
import TouchstoneProtocol
import TouchstoneStorage

struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show audit events.")
    @Option(help: "Only events at or after this RFC 3339 time.") var since: String?
    @Option(help: "Only this user's events.") var user: String?
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let since, ISO8601DateFormatter().date(from: since) == nil {
            throw ValidationError("--since takes an RFC 3339 time such as 2026-11-21T12:00:00Z")
        }
    }

    func run() async throws {
        let since = since.flatMap { ISO8601DateFormatter().date(from: $0) }
        let events = try await withAdmin(database) { try await $0.audit.log(since: since, username: user) }
        if output.json {
            try printJSON(["events": events.map(Line.init)])
            return
        }
        for event in events {
            let fields = [
                event.userId.map { "user=\($0)" }, event.deviceId.map { "device=\($0)" },
                event.clientId.map { "app=\($0)" }, event.ip.map { "ip=\($0)" }, event.detail,
            ].compactMap { $0 }
            print("\(event.at.rfc3339)  \(event.event)  \(event.outcome)  \(fields.joined(separator: " "))")
        }
    }
}

extension Audit {
    /// An event as `audit --json` shows it: the actor's kind, and the admin token's name for a change made through the
    /// admin API.
    struct Line: Encodable {
        var at: Date
        var event: AuditEventType
        var outcome: AuditOutcome
        var userId: String?
        var deviceId: String?
        var clientId: String?
        var ip: String?
        var detail: String?
        var requestId: String?
        var userAgent: String?
        var actor: String?
        var actorName: String?

        init(_ event: AuditEvent) {
            at = event.at
            self.event = event.event
            outcome = event.outcome
            userId = event.userId
            deviceId = event.deviceId
            clientId = event.clientId
            ip = event.ip
            detail = event.detail
            requestId = event.requestId
            userAgent = event.userAgent
            actor = event.actor?.kind.rawValue
            actorName = event.actor?.name
        }
    }
}
