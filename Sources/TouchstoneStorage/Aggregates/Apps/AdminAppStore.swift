import Foundation

/// Creating and removing apps, for administrators. Every method is atomic on its own.
package protocol AdminAppStore: Sendable {
    /// Inserts a new app; `false` (nothing written) when its client id is taken.
    func createApp(_ app: AppRecord, at now: Date) async throws -> Bool
    /// In one transaction, under a lock on the app's row: when no active device was enrolled through the app, ends its
    /// sessions at `now` and deletes it with its API keys, push credentials, OpenID Connect and CIBA registrations and
    /// unfinished authorization requests and codes.
    func deleteApp(clientId: String, at now: Date) async throws -> AppDeletion
}

/// What ``AdminAppStore/deleteApp(clientId:at:)`` did.
package enum AppDeletion: Sendable, Equatable {
    case deleted
    /// Nothing written: there is no such app.
    case notFound
    /// Nothing written: devices enrolled through the app are active.
    case hasActiveDevices
}
