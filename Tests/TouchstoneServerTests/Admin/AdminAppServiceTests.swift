import Foundation
import Testing
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// Apps through the admin services (PROTOCOL "Administration API"): the policy's ranges in one place for the API and
/// `admin app create`, a client's secret shown once, PATCH keeping what it does not name, API keys per app, and
/// `app_not_found` apart from `not_found`; on both stores.
@Suite struct AdminAppServiceTests {
    /// Policies out of the ranges of `admin app create`, each with the member its refusal names.
    static let outOfRange: [(AdminPolicyInput, String)] = [
        (AdminPolicyInput(maxPinAttempts: 0), "maxPinAttempts"),
        (AdminPolicyInput(maxPinAttempts: 21), "maxPinAttempts"),
        (AdminPolicyInput(inactivityTimeoutSeconds: 29), "inactivityTimeoutSeconds"),
        (AdminPolicyInput(inactivityTimeoutSeconds: 86_401), "inactivityTimeoutSeconds"),
        (AdminPolicyInput(privilegedWindowSeconds: 29), "privilegedWindowSeconds"),
        (AdminPolicyInput(privilegedWindowSeconds: 86_401), "privilegedWindowSeconds"),
        (AdminPolicyInput(biometricAllowed: false, pinRequired: false), "biometricAllowed"),
    ]

    @Test func policyRangesAreRefusedWithNothingStoredOnEveryPath() async throws {
        try await Harness.run { h in
            let apps = h.admin.apps
            for (policy, member) in Self.outOfRange {
                let created = try await expectRefusal(.invalidRequest) {
                    try await apps.create(
                        AdminAppInput(
                            clientId: "com.example.pay", publisher: "acme", redirectUris: ["https://pay.example/cb"],
                            clientSecret: true, policy: policy),
                        by: .commandLine)
                }
                #expect(created?.detail?.contains(member) == true, "\(String(describing: created))")
                try await expectRefusal(.invalidRequest) {
                    try await apps.update("com.example.demo", AdminAppChanges(name: "Demo", policy: policy), by: .commandLine)
                }
                // `admin app create`'s path.
                try await expectRefusal(.invalidRequest) {
                    try await apps.save(
                        policy.applied(to: AppPolicy(clientId: "com.example.cli", publisher: "acme")), by: .commandLine)
                }
            }
            #expect(try await h.store.app(clientId: "com.example.pay") == nil)
            #expect(try await h.store.oidcClient(clientId: "com.example.pay") == nil)
            #expect(try await h.store.app(clientId: "com.example.cli") == nil)
            #expect(try await h.store.app(clientId: "com.example.demo")?.policy == AppRecord.demo.policy)
            #expect(try await h.store.oidcClient(clientId: "com.example.demo") == nil)
            // The bounds themselves are allowed.
            let bounds = AdminPolicyInput(maxPinAttempts: 20, inactivityTimeoutSeconds: 86_400, privilegedWindowSeconds: 30)
            let saved = try await apps.create(
                AdminAppInput(clientId: "com.example.pay", publisher: "acme", policy: bounds), by: .commandLine)
            #expect(saved.policy == bounds.applied(to: AppPolicy(clientId: "com.example.pay", publisher: "acme")))
        }
    }

    @Test func aClientsSecretIsShownOnceAndANewOneReplacesIt() async throws {
        try await Harness.run { h in
            let apps = h.admin.apps
            let created = try await apps.create(
                AdminAppInput(
                    clientId: "shop", publisher: "shops", name: "The Shop", redirectUris: ["https://shop.example/cb"],
                    postLogoutRedirectUris: ["https://shop.example/bye"], clientSecret: true, idTokenAlg: "ES256"),
                by: .commandLine)
            let secret = try #require(created.clientSecret)
            #expect(
                created
                    == AdminApp(
                        clientId: "shop", publisher: "shops", name: "The Shop", redirectUris: ["https://shop.example/cb"],
                        postLogoutRedirectUris: ["https://shop.example/bye"], confidential: true,
                        policy: AppPolicy(clientId: "shop", publisher: "shops"), clientSecret: secret))
            #expect(try await apps.get("shop").clientSecret == nil)
            #expect(try await h.store.oidcClient(clientId: "shop")?.secretHash == SecretDigest.sha256(secret))
            try await expectRefusal(.invalidRequest) {
                try await apps.create(AdminAppInput(clientId: "shop", publisher: "other"), by: .commandLine)
            }

            let renewed = try await apps.newSecret("shop", by: .commandLine).clientSecret
            #expect(renewed != secret)
            let stored = try await h.store.oidcClient(clientId: "shop")
            #expect(stored?.secretHash == SecretDigest.sha256(renewed), "the old secret stops working")
            #expect(stored?.name == "The Shop" && stored?.idTokenAlgorithm == "ES256")

            try await expectRefusal(.invalidRequest) { try await apps.newSecret("com.example.demo", by: .commandLine) }
            try await expectRefusal(.appNotFound) { try await apps.newSecret("nope", by: .commandLine) }
            try await expectRefusal(.invalidRequest) {
                try await apps.create(
                    AdminAppInput(clientId: "lonely", publisher: "x", clientSecret: true), by: .commandLine)
            }
            #expect(try await h.store.app(clientId: "lonely") == nil)
        }
    }

    @Test func ofTwoCreationsOfOneClientIdOneSucceeds() async throws {
        try await Harness.run { h in
            let apps = h.admin.apps
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for publisher in ["first", "second", "third"] {
                    group.addTask {
                        do {
                            return try await apps.create(
                                AdminAppInput(clientId: "com.example.pay", publisher: publisher), by: .commandLine
                            ).publisher
                        } catch let refusal as ProblemError where refusal.code == .invalidRequest {
                            return "refused"
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "refused" }.count == 2, "\(outcomes)")
            let winner = try #require(outcomes.first { $0 != "refused" })
            #expect(try await apps.get("com.example.pay").publisher == winner)
        }
    }

    @Test func patchChangesWhatItNamesAndKeepsTheRest() async throws {
        try await Harness.run { h in
            let apps = h.admin.apps
            let created = try await apps.create(
                AdminAppInput(
                    clientId: "shop", publisher: "shops", redirectUris: ["https://shop.example/cb"], clientSecret: true,
                    policy: AdminPolicyInput(maxPinAttempts: 3)),
                by: .commandLine)
            let hash = try await h.store.oidcClient(clientId: "shop")?.secretHash
            let changed = try await apps.update(
                "shop", AdminAppChanges(name: "Shop", policy: AdminPolicyInput(inactivityTimeoutSeconds: 600)),
                by: .commandLine)
            #expect(changed.name == "Shop" && changed.redirectUris == ["https://shop.example/cb"] && changed.confidential)
            #expect(changed.policy.maxPinAttempts == 3 && changed.policy.inactivityTimeoutSeconds == 600)
            #expect(changed.clientSecret == nil && changed.publisher == created.publisher)
            #expect(try await h.store.oidcClient(clientId: "shop")?.secretHash == hash, "the secret stays")
            try await expectRefusal(.invalidRequest) {
                try await apps.update("shop", AdminAppChanges(redirectUris: ["http://evil.example/cb"]), by: .commandLine)
            }
            #expect(try await apps.get("shop") == changed)

            // An app that is no client becomes a public one with redirect URIs.
            try await expectRefusal(.invalidRequest) {
                try await apps.update("com.example.demo", AdminAppChanges(name: "Demo"), by: .commandLine)
            }
            let client = try await apps.update(
                "com.example.demo", AdminAppChanges(redirectUris: ["http://localhost/cb"]), by: .commandLine)
            #expect(client.redirectUris == ["http://localhost/cb"] && !client.confidential && client.name == "com.example.demo")
            try await expectRefusal(.appNotFound) { try await apps.update("nope", AdminAppChanges(), by: .commandLine) }
        }
    }

    @Test func apiKeysBelongToTheirAppAndAnUnknownAppIsNotAnUnknownKey() async throws {
        try await Harness.run { h in
            let apps = h.admin.apps
            _ = try await apps.create(AdminAppInput(clientId: "com.example.pay", publisher: "acme"), by: .commandLine)
            let key = try await apps.createAPIKey("com.example.pay", by: .commandLine)
            #expect(key.apiKey.hasPrefix("tsk_"))
            #expect(try await h.runtime.environment.authenticateApp(apiKey: key.apiKey).clientId == "com.example.pay")
            #expect(try await apps.apiKeys("com.example.pay").apiKeys.map(\.keyId) == [key.keyId])
            #expect(try await apps.apiKeys("com.example.demo").apiKeys.isEmpty)

            try await expectRefusal(.appNotFound) { try await apps.apiKeys("nope") }
            try await expectRefusal(.appNotFound) { try await apps.createAPIKey("nope", by: .commandLine) }
            try await expectRefusal(.appNotFound) { try await apps.get("nope") }
            try await expectRefusal(.appNotFound) { try await apps.revokeAPIKey(key.keyId, of: "nope", by: .commandLine) }
            // The key is not the demo app's.
            try await expectRefusal(.notFound) {
                try await apps.revokeAPIKey(key.keyId, of: "com.example.demo", by: .commandLine)
            }
            try await apps.revokeAPIKey(key.keyId, of: "com.example.pay", by: .commandLine)
            #expect(try await apps.apiKeys("com.example.pay").apiKeys.isEmpty)
            try await expectRefusal(.unauthorized) { try await h.runtime.environment.authenticateApp(apiKey: key.apiKey) }
            try await expectRefusal(.notFound) {
                try await apps.revokeAPIKey(key.keyId, of: "com.example.pay", by: .commandLine)
            }
        }
    }

    @Test func anAppWithActiveDevicesOrTheDemoAppIsNotDeleted() async throws {
        try await Harness.run { h in
            let apps = h.admin.apps
            _ = try await apps.create(
                AdminAppInput(clientId: "com.example.pay", publisher: "demo", redirectUris: ["https://pay.example/cb"]),
                by: .commandLine)
            _ = try await apps.createAPIKey("com.example.pay", by: .commandLine)
            let enrolled = try await h.enroll(try await TestDevice(), clientId: "com.example.pay")
            try await expectRefusal(.invalidRequest) { try await apps.delete("com.example.pay", by: .commandLine) }
            #expect(try await apps.get("com.example.pay").clientId == "com.example.pay")
            try await expectRefusal(.invalidRequest) { try await apps.delete("com.example.demo", by: .commandLine) }

            try await h.admin.users.revokeDevice(enrolled.deviceId, by: .commandLine)
            try await apps.delete("com.example.pay", by: .commandLine)
            try await expectRefusal(.appNotFound) { try await apps.get("com.example.pay") }
            #expect(try await h.store.oidcClient(clientId: "com.example.pay") == nil)
            #expect(try await h.store.apiKeys().isEmpty)
            try await expectRefusal(.appNotFound) { try await apps.delete("com.example.pay", by: .commandLine) }
            let events = try await h.store.auditEvents(since: nil, userId: nil).map(\.event)
            #expect(events.contains(.adminAppDelete))
        }
    }
}
