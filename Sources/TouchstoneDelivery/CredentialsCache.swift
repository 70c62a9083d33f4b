import Foundation
import Synchronization
import TouchstoneStorage

/// Apps' push credentials, read again after their lifetime.
final class CredentialsCache: Sendable {
    private struct Entry {
        var credentials: PushCredentials
        var readAt: Date
    }

    private let lifetime: TimeInterval
    private let entries = Mutex<[String: Entry]>([:])

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
    }

    func credentials(
        of clientId: String, at now: Date, reading: () async throws -> PushCredentials
    ) async throws -> PushCredentials {
        if let entry = entries.withLock({ $0[clientId] }), now.timeIntervalSince(entry.readAt) < lifetime {
            return entry.credentials
        }
        let credentials = try await reading()
        entries.withLock { $0[clientId] = Entry(credentials: credentials, readAt: now) }
        return credentials
    }
}
