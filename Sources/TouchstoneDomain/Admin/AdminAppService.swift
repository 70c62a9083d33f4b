import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// Apps, their policies, OpenID Connect registrations, push credentials and API keys, for administrators. Everything a
/// change carries is checked before anything is stored.
package struct AdminAppService: Sendable {
    typealias Store = AppStore & ProviderStore & CIBAStore & PushStore & AdminAppStore & AuditStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    let audit: AdminAudit

    // MARK: Apps

    /// Every app, by client id.
    package func list() async throws -> [AdminApp] {
        var apps: [AdminApp] = []
        for app in try await store.apps() {
            apps.append(Self.view(app, client: try await store.oidcClient(clientId: app.clientId)))
        }
        return apps
    }

    /// - Throws: `app_not_found`.
    package func get(_ clientId: String) async throws -> AdminApp {
        let app = try await existingApp(clientId)
        return Self.view(app, client: try await store.oidcClient(clientId: clientId))
    }

    /// A new app (`POST /admin/v1/apps`), with `redirectUris` an OpenID Connect client too; a confidential client's
    /// secret is in the answer, once.
    /// - Throws: `invalid_request` for an app that exists (the client id is claimed by the insert itself, so two
    ///   creations of one id cannot both succeed), a policy out of range, a registration the provider cannot use, or
    ///   client members without `redirectUris`.
    package func create(_ input: AdminAppInput, by caller: AdminCaller) async throws -> AdminApp {
        try caller.require(.write)
        let policy = (input.policy ?? AdminPolicyInput()).applied(
            to: AppPolicy(clientId: input.clientId, publisher: input.publisher))
        var client: OIDCClientRegistration?
        if let redirectURIs = input.redirectUris, !redirectURIs.isEmpty {
            client = OIDCClientRegistration(
                clientId: input.clientId, name: input.name, redirectURIs: redirectURIs,
                postLogoutRedirectURIs: input.postLogoutRedirectUris ?? [], confidential: input.clientSecret ?? false,
                idTokenAlgorithm: input.idTokenAlg ?? ServerKeyAlgorithm.rs256.rawValue)
        } else if input.name != nil || input.postLogoutRedirectUris?.isEmpty == false || input.clientSecret == true
            || input.idTokenAlg != nil
        {
            throw ProblemError.invalidRequest("name, postLogoutRedirectUris, clientSecret and idTokenAlg need redirectUris")
        }
        try AppPolicyRules.check(policy)
        let registration = try refusingConfiguration { try client.map { try $0.record(random: random) } }
        let attested = try refusingConfiguration { try AttestationRegistration().record(requirement: policy.attestation) }
        guard
            try await store.createApp(
                AppRecord(clientId: policy.clientId, publisher: policy.publisher, policy: policy, attestedApps: attested),
                at: clock.now())
        else { throw ProblemError.invalidRequest("an app \(input.clientId) exists already") }
        try await audit.record(.adminAppSave, by: caller, clientId: policy.clientId)
        if let (record, _) = registration {
            try await store.saveOIDCClient(record)
            try await audit.record(.adminOIDCClientSave, by: caller, clientId: policy.clientId)
        }
        var app = try await get(input.clientId)
        app.clientSecret = registration?.secret
        return app
    }

    /// Changes an app's policy and OpenID Connect registration (`PATCH`); an absent member keeps its value, and a
    /// client keeps its secret, keys, FAPI profile and CIBA mode. An app that is not a client becomes a public one with
    /// `redirectUris`.
    /// - Throws: `app_not_found`; `invalid_request` as ``create(_:by:)`` does.
    package func update(_ clientId: String, _ changes: AdminAppChanges, by caller: AdminCaller) async throws -> AdminApp {
        try caller.require(.write)
        let app = try await existingApp(clientId)
        let policy = (changes.policy ?? AdminPolicyInput()).applied(to: app.policy)
        try AppPolicyRules.check(policy)
        let attested = try refusingConfiguration {
            try AttestationRegistration(
                androidApps: app.attestedApps.android.map { "\($0.packageName):\($0.signingCertificateSHA256)" },
                appleAppIDs: app.attestedApps.appleAppIds, appleDevelopment: app.attestedApps.appleDevelopment
            ).record(requirement: policy.attestation)
        }
        let client = try await changedClient(clientId, changes)
        try await store.saveApp(
            AppRecord(clientId: clientId, publisher: app.publisher, policy: policy, attestedApps: attested), at: clock.now())
        try await audit.record(.adminAppSave, by: caller, clientId: clientId)
        if let client {
            try await store.saveOIDCClient(client)
            try await audit.record(.adminOIDCClientSave, by: caller, clientId: clientId)
        }
        return try await get(clientId)
    }

    /// The client's registration after `changes`, checked as a new one is; `nil` when it is not a client and stays
    /// none.
    private func changedClient(_ clientId: String, _ changes: AdminAppChanges) async throws -> OIDCClientRecord? {
        let existing = try await store.oidcClient(clientId: clientId)
        guard existing != nil || changes.redirectUris?.isEmpty == false else {
            guard changes.name == nil, changes.postLogoutRedirectUris?.isEmpty != false, changes.idTokenAlg == nil else {
                throw ProblemError.invalidRequest(
                    "\(clientId) is not an OpenID Connect client: name, postLogoutRedirectUris and idTokenAlg need "
                        + "redirectUris")
            }
            return nil
        }
        let ciba = try await store.cibaClient(clientId: clientId)
        var registration = OIDCClientRegistration(
            clientId: clientId, name: changes.name ?? existing?.name,
            redirectURIs: changes.redirectUris ?? existing?.redirectURIs ?? [],
            postLogoutRedirectURIs: changes.postLogoutRedirectUris ?? existing?.postLogoutRedirectURIs ?? [],
            confidential: false,
            idTokenAlgorithm: changes.idTokenAlg ?? existing?.idTokenAlgorithm ?? ServerKeyAlgorithm.rs256.rawValue,
            keys: try existing?.jwks.map { try ClientKeySet(stored: $0) })
        registration.fapi = existing?.fapi ?? false
        registration.ciba = ciba.map {
            CIBAClientRegistration(mode: $0.mode.rawValue, notificationEndpoint: $0.notificationEndpoint)
        }
        // Checked as a public client (it draws no secret); the stored secret stays.
        var (record, _) = try refusingConfiguration { try registration.record(random: random) }
        record.secretHash = existing?.secretHash
        return record
    }

    /// Deletes an app with its registrations and API keys, and ends its sessions.
    /// - Throws: `app_not_found`; `invalid_request` for the app of requests that name none (`com.example.demo`), or an
    ///   app with active devices (revoke them first).
    package func delete(_ clientId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        guard clientId != AppRecord.demo.clientId else {
            throw ProblemError.invalidRequest(
                "\(clientId) is the app of web logins, passkey sign-ins and legacy clients; it cannot be deleted")
        }
        switch try await store.deleteApp(clientId: clientId, at: clock.now()) {
        case .deleted: try await audit.record(.adminAppDelete, by: caller, clientId: clientId)
        case .notFound: throw Self.appNotFound(clientId)
        case .hasActiveDevices:
            throw ProblemError.invalidRequest("\(clientId) has active devices: revoke them before deleting the app")
        }
    }

    /// A new secret for an OpenID Connect client, shown once; the old one stops working at once. A public client
    /// becomes confidential.
    /// - Throws: `app_not_found`; `invalid_request` for an app that is not a client, or a FAPI client (it
    ///   authenticates with its keys only).
    package func newSecret(_ clientId: String, by caller: AdminCaller) async throws -> AdminClientSecret {
        try caller.require(.write)
        _ = try await existingApp(clientId)
        guard var client = try await store.oidcClient(clientId: clientId) else {
            throw ProblemError.invalidRequest("\(clientId) is not an OpenID Connect client")
        }
        guard !client.fapi else {
            throw ProblemError.invalidRequest("\(clientId) is a FAPI client: it authenticates with its keys, never a secret")
        }
        let secret = random.token()
        client.secretHash = SecretDigest.sha256(secret)
        try await store.saveOIDCClient(client)
        try await audit.record(.adminOIDCClientSecret, by: caller, clientId: clientId)
        return AdminClientSecret(clientSecret: secret)
    }

    // MARK: API keys

    /// The app's unrevoked API keys, oldest first.
    /// - Throws: `app_not_found`.
    package func apiKeys(_ clientId: String) async throws -> AdminAPIKeyList {
        _ = try await existingApp(clientId)
        return AdminAPIKeyList(
            apiKeys: try await store.apiKeys().filter { $0.clientId == clientId && $0.revokedAt == nil }.map {
                AdminAPIKey(keyId: $0.id, createdAt: $0.createdAt)
            })
    }

    /// A new API key for the app, shown once; only its SHA-256 is stored.
    /// - Throws: `app_not_found`.
    package func createAPIKey(_ clientId: String, by caller: AdminCaller) async throws -> CreatedAPIKey {
        try caller.require(.write)
        _ = try await existingApp(clientId)
        let id = random.recordID()
        let key = "tsk_" + random.token()
        try await store.createAPIKey(
            APIKeyRecord(id: id, clientId: clientId, createdAt: clock.now(), revokedAt: nil), hash: SecretDigest.sha256(key))
        try await audit.record(.adminAPIKeyCreate, by: caller, clientId: clientId, detail: id)
        return CreatedAPIKey(keyId: id, apiKey: key)
    }

    /// Revokes one of the app's keys.
    /// - Throws: `app_not_found`; `not_found` when the app has no such unrevoked key.
    package func revokeAPIKey(_ keyId: String, of clientId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        _ = try await existingApp(clientId)
        guard try await store.apiKeys().contains(where: { $0.id == keyId && $0.clientId == clientId }) else {
            throw ProblemError(.notFound, detail: "\(clientId) has no unrevoked API key \(keyId).")
        }
        try await revokeAPIKey(id: keyId, by: caller)
    }

    /// Revokes an API key of any app (`admin api-key revoke`).
    /// - Throws: `not_found` when there is no such unrevoked key.
    package func revokeAPIKey(id: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        guard try await store.revokeAPIKey(id: id, at: clock.now()) else {
            throw ProblemError(.notFound, detail: "no unrevoked API key \(id)")
        }
        try await audit.record(.adminAPIKeyRevoke, by: caller, detail: id)
    }

    /// Every API key of every app, revoked ones too (`admin api-key list`).
    package func allAPIKeys() async throws -> [APIKeyView] {
        try await store.apiKeys().map {
            APIKeyView(id: $0.id, clientId: $0.clientId, createdAt: $0.createdAt, revokedAt: $0.revokedAt)
        }
    }

    // MARK: The command line's registrations

    /// Creates or updates an app (`admin app create`), and with `client` makes it an OpenID Connect client (or changes
    /// its registration).
    /// - Parameter attestation: the builds whose hardware key attestations the app accepts (its policy's
    ///   `attestation` says whether one is required).
    /// - Returns: the client's new secret for a confidential client, shown only now.
    /// - Throws: `invalid_request` for an out-of-range policy value, a registration the provider cannot use, allowed
    ///   builds that are not well formed, or a change that would drop a client's secret or keys.
    @discardableResult
    package func save(
        _ policy: AppPolicy, client: OIDCClientRegistration? = nil,
        attestation: AttestationRegistration = AttestationRegistration(), by caller: AdminCaller
    ) async throws -> String? {
        try caller.require(.write)
        try AppPolicyRules.check(policy)
        if let client, !client.confidential, try await store.oidcClient(clientId: client.clientId)?.secretHash != nil {
            throw ProblemError.invalidRequest(
                "\(client.clientId) is a confidential client: give --client-secret (it makes a new secret) to change it")
        }
        if let client, client.keys == nil, try await store.oidcClient(clientId: client.clientId)?.jwks != nil {
            throw ProblemError.invalidRequest("\(client.clientId) authenticates with its keys: give --jwks FILE to change it")
        }
        let registration = try refusingConfiguration { try client.map { try $0.record(random: random) } }
        let cibaClient = try refusingConfiguration {
            try client.flatMap { client in
                try client.ciba.map {
                    try $0.record(clientId: client.clientId, confidential: client.confidential || client.keys != nil)
                }
            }
        }
        let attestedApps = try refusingConfiguration { try attestation.record(requirement: policy.attestation) }
        try await store.saveApp(
            AppRecord(clientId: policy.clientId, publisher: policy.publisher, policy: policy, attestedApps: attestedApps),
            at: clock.now())
        try await audit.record(.adminAppSave, by: caller, clientId: policy.clientId)
        guard let (record, secret) = registration else { return nil }
        try await store.saveOIDCClient(record)
        try await audit.record(.adminOIDCClientSave, by: caller, clientId: policy.clientId)
        if let cibaClient { try await store.saveCIBAClient(cibaClient) }
        return secret
    }

    /// Replaces an OpenID Connect client's JWK Set (``ClientKeySet``, already checked).
    /// - Throws: `not_found` when no OpenID Connect client has this id.
    package func setClientKeys(_ keys: ClientKeySet, clientId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        guard try await store.setClientJWKS(clientId: clientId, jwks: try keys.stored) else {
            throw ProblemError(.notFound, detail: "no OpenID Connect client \(clientId)")
        }
        try await audit.record(.adminOIDCClientSave, by: caller, clientId: clientId)
    }

    /// Every app's policy, by client id.
    package func policies() async throws -> [AppPolicy] {
        try await store.apps().map(\.policy)
    }

    /// Sets up, replaces or removes the app's push credentials; a provider the input leaves alone keeps its settings.
    /// - Throws: `invalid_request` for input ``PushCredentialsInput/changes()`` refuses; `app_not_found`.
    package func setPushCredentials(_ input: PushCredentialsInput, clientId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        let changes = try refusingConfiguration { try input.changes() }
        guard
            try await store.updatePushCredentials(
                clientId: clientId, apns: changes.apns, fcm: changes.fcm, at: clock.now())
        else { throw Self.appNotFound(clientId) }
        try await audit.record(.adminAppPush, by: caller, clientId: clientId)
    }

    /// Which push providers the app is set up for, without their keys.
    package func pushSetup(clientId: String) async throws -> PushSetupView {
        let credentials = try await store.pushCredentials(clientId: clientId)
        return PushSetupView(
            apns: credentials.apns.map { PushSetupView.APNs(keyId: $0.keyId, teamId: $0.teamId, topics: $0.topics) },
            fcm: credentials.fcm.map { PushSetupView.FCM(projectId: $0.projectId, clientEmail: $0.clientEmail) })
    }

    /// The app with this client id.
    /// - Throws: `app_not_found`, naming the client id.
    private func existingApp(_ clientId: String) async throws -> AppRecord {
        guard let app = try await store.app(clientId: clientId) else { throw Self.appNotFound(clientId) }
        return app
    }

    private static func appNotFound(_ clientId: String) -> ProblemError {
        ProblemError(.appNotFound, detail: "no app \(clientId)")
    }

    /// An app as the admin API shows it.
    private static func view(_ app: AppRecord, client: OIDCClientRecord?) -> AdminApp {
        AdminApp(
            clientId: app.clientId, publisher: app.publisher, name: client?.name ?? app.clientId,
            redirectUris: client?.redirectURIs ?? [], postLogoutRedirectUris: client?.postLogoutRedirectURIs ?? [],
            confidential: client.map { !$0.isPublic } ?? false, policy: app.policy, clientSecret: nil)
    }
}
