import Foundation

/// Apps (client ids with their publisher and policy) and their API keys. Every method is atomic on its own.
package protocol AppStore: Sendable {
    func app(clientId: String) async throws -> AppRecord?
    func apps() async throws -> [AppRecord]
    /// Inserts an app, or replaces its publisher and policy.
    func saveApp(_ app: AppRecord, at now: Date) async throws
    /// Creates the `demo` publisher's `com.example.demo` app when there is no app at all.
    func createDemoAppIfEmpty(_ app: AppRecord, at now: Date) async throws
    func createAPIKey(_ key: APIKeyRecord, hash: String) async throws
    /// The app of an unrevoked key with this SHA-256.
    func apiKeyClientId(hash: String) async throws -> String?
    func apiKeys() async throws -> [APIKeyRecord]
    /// `false` when there is no such unrevoked key.
    func revokeAPIKey(id: String, at: Date) async throws -> Bool
}
