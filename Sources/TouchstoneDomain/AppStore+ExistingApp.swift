import TouchstoneStorage

extension AppStore {
    /// The app with this client id, or 404 `app_not_found`.
    package func existingApp(_ clientId: String) async throws -> AppRecord {
        guard let app = try await app(clientId: clientId) else { throw ProblemError.appNotFound }
        return app
    }
}
