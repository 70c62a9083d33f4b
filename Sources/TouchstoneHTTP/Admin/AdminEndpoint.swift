import TouchstoneProtocol

/// The admin API's endpoints, as `admin-openapi.yaml` writes them: a table of its own, apart from the protocol's
/// ``Endpoint/all`` (the SDK never calls these).
enum AdminEndpoint {
    static let openAPI = Endpoint("GET", "/admin/v1/openapi.yaml")

    static let apps = Endpoint("GET", "/admin/v1/apps")
    static let createApp = Endpoint("POST", "/admin/v1/apps")
    static let app = Endpoint("GET", "/admin/v1/apps/{clientId}")
    static let updateApp = Endpoint("PATCH", "/admin/v1/apps/{clientId}")
    static let deleteApp = Endpoint("DELETE", "/admin/v1/apps/{clientId}")
    static let newClientSecret = Endpoint("POST", "/admin/v1/apps/{clientId}/secret")
    static let apiKeys = Endpoint("GET", "/admin/v1/apps/{clientId}/api-keys")
    static let createAPIKey = Endpoint("POST", "/admin/v1/apps/{clientId}/api-keys")
    static let revokeAPIKey = Endpoint("DELETE", "/admin/v1/apps/{clientId}/api-keys/{keyId}")

    static let users = Endpoint("GET", "/admin/v1/users")
    static let user = Endpoint("GET", "/admin/v1/users/{userId}")
    static let resetUser = Endpoint("POST", "/admin/v1/users/{userId}/reset")
    static let revokeDevice = Endpoint("DELETE", "/admin/v1/users/{userId}/devices/{deviceId}")
    static let sessions = Endpoint("GET", "/admin/v1/users/{userId}/sessions")
    static let endSession = Endpoint("DELETE", "/admin/v1/users/{userId}/sessions/{sessionId}")

    static let audit = Endpoint("GET", "/admin/v1/audit")

    static let webhooks = Endpoint("GET", "/admin/v1/webhooks")
    static let createWebhook = Endpoint("POST", "/admin/v1/webhooks")
    static let deleteWebhook = Endpoint("DELETE", "/admin/v1/webhooks/{webhookId}")
    static let testWebhook = Endpoint("POST", "/admin/v1/webhooks/{webhookId}/test")

    /// Every endpoint.
    static let all: [Endpoint] = [
        openAPI, apps, createApp, app, updateApp, deleteApp, newClientSecret, apiKeys, createAPIKey, revokeAPIKey, users,
        user, resetUser, revokeDevice, sessions, endSession, audit, webhooks, createWebhook, deleteWebhook, testWebhook,
    ]
}
