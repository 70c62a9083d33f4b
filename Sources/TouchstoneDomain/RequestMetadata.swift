import Logging
import TouchstoneStorage

/// What a request says about itself, for its log lines and audit events: its id (`X-Request-Id`), its user agent,
/// and the kind of caller when an authenticator established it. The HTTP layer sets it for the length of a request
/// (a task-local value); log lines and the ``Auditor`` read it from there.
package struct RequestMetadata: Sendable {
    package var requestId: String
    package var userAgent: String?
    /// ``AuditActor/apiKey`` for a relying service's request; otherwise the audit event's device or user acted.
    package var actor: AuditActor?

    package init(requestId: String, userAgent: String?, actor: AuditActor? = nil) {
        self.requestId = requestId
        self.userAgent = userAgent
        self.actor = actor
    }

    /// The request being served, if any.
    @TaskLocal package static var current: RequestMetadata?

    /// Adds `request_id` to every log line written while a request is served.
    package static let loggingProvider = Logger.MetadataProvider {
        current.map { ["request_id": .string($0.requestId)] } ?? [:]
    }
}
