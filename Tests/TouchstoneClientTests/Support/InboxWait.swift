import Testing
import TouchstoneClient
import TouchstoneProtocol

/// The first item of `kind` in the device's inbox, long-polling until one arrives (at most about 2 minutes: the
/// other device's registration does bcrypt work, slow on a loaded machine).
func nextInboxItem(_ client: TouchstoneClient, kind: InboxItemKind, sourceLocation: SourceLocation = #_sourceLocation)
    async throws -> InboxItem
{
    var found: InboxItem?
    for _ in 0..<24 where found == nil {
        found = try await client.pendingRequests(waitSeconds: 5).first { $0.kind == kind }
    }
    return try #require(found, "no \(kind.rawValue) item arrived in the inbox", sourceLocation: sourceLocation)
}
