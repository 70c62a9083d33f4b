import TouchstoneProtocol

/// An app (client id) of a publisher, with its policy.
package struct AppRecord: Sendable, Equatable {
    package var clientId: String
    package var publisher: String
    package var policy: AppPolicy
    /// The builds whose attestations the app accepts (its policy says whether one is required).
    package var attestedApps: AttestedApps

    /// The app an empty database gets, so that the first run works with no set-up; also the app of requests that
    /// name none (web logins, passkey sign-ins, legacy clients).
    package static let demo = AppRecord(
        clientId: "com.example.demo", publisher: "demo",
        policy: AppPolicy(clientId: "com.example.demo", publisher: "demo"))

    package init(clientId: String, publisher: String, policy: AppPolicy, attestedApps: AttestedApps = AttestedApps()) {
        self.clientId = clientId
        self.publisher = publisher
        self.policy = policy
        self.attestedApps = attestedApps
    }
}
