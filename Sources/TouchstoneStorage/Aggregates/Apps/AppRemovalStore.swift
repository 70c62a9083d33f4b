import Foundation

/// Removing an app, for administrators. Every method is atomic on its own.
package protocol AppRemovalStore: Sendable {
    /// In one transaction, under a lock on the app's row: when no active device was enrolled through the app, ends its
    /// sessions at `now` and deletes it with its API keys, push credentials, OpenID Connect and CIBA registrations and
    /// unfinished authorization requests and codes.
    func deleteApp(clientId: String, at now: Date) async throws -> AppDeletion
}

/// What ``AppRemovalStore/deleteApp(clientId:)`` did.
package enum AppDeletion: Sendable, Equatable {
    case deleted
    /// Nothing written: there is no such app.
    case notFound
    /// Nothing written: devices enrolled through the app are active.
    case hasActiveDevices
}
