import TouchstoneStorage

/// What an administrator registers to let an OpenID Connect client use CIBA (`admin app create … --ciba-mode
/// poll|ping [--ciba-notification-endpoint URL]`), checked before it is stored.
package struct CIBAClientRegistration: Sendable, Equatable {
    package var mode: String
    package var notificationEndpoint: String?

    package init(mode: String, notificationEndpoint: String?) {
        self.mode = mode
        self.notificationEndpoint = notificationEndpoint
    }

    /// The record to store for `clientId`.
    /// - Throws: ``ConfigurationError`` for a mode other than poll and ping, a public client, a ping client without a
    ///   notification endpoint or a poll client with one, or an endpoint that is neither `https` nor `http` on
    ///   localhost or 127.0.0.1 (the redirect URIs' rules).
    package func record(clientId: String, confidential: Bool) throws -> CIBAClientRecord {
        guard let mode = CIBAClientRecord.Mode(rawValue: mode) else {
            throw ConfigurationError("--ciba-mode takes poll or ping")
        }
        guard confidential else {
            throw ConfigurationError("CIBA is for confidential clients only: give --client-secret with --ciba-mode")
        }
        switch (mode, notificationEndpoint) {
        case (.ping, nil): throw ConfigurationError("--ciba-mode ping needs --ciba-notification-endpoint")
        case (.poll, _?): throw ConfigurationError("--ciba-notification-endpoint is for --ciba-mode ping only")
        case (.ping, let endpoint?): try OIDCClientRegistration.check(endpoint)
        case (.poll, nil): break
        }
        return CIBAClientRecord(clientId: clientId, mode: mode, notificationEndpoint: notificationEndpoint)
    }
}
