import Foundation
import HTTPTypes
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// The audit query of the admin API (PROTOCOL "Administration API"): newest first, filtered, paged with cursors; each
/// event with its id and actor, never a secret; on both stores.
@Suite struct AdminAuditServiceTests {
    /// Stores an event of `userId` at `milliseconds` after `base`.
    private func record(
        _ h: Harness, _ type: AuditEventType, userId: String, at milliseconds: Int, after base: Date
    ) async throws {
        try await h.store.audit(
            AuditEvent(
                at: base.addingTimeInterval(Double(milliseconds) / 1000), event: type, outcome: .ok, userId: userId,
                clientId: nil, ip: "192.0.2.1", detail: nil, actor: .user))
    }

    private func page(
        _ h: Harness, userId: String? = nil, type: String? = nil, since: Date? = nil, until: Date? = nil, limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> AdminPage<AdminAuditEvent> {
        try await h.admin.audit.events(
            userId: userId, type: type, since: since, until: until, limit: limit, cursor: cursor)
    }

    @Test func eventsComeNewestFirstFilteredAndPagedWithoutRepeats() async throws {
        try await Harness.run { h in
            let base = Date(timeIntervalSince1970: (h.now.timeIntervalSince1970).rounded(.down))
            for milliseconds in [0, 1, 2, 2, 3] {
                try await record(h, .login, userId: "ana", at: milliseconds, after: base)
            }
            for milliseconds in [4, 10] {
                try await record(h, .passwordLogin, userId: "bea", at: milliseconds, after: base)
            }
            let all = try await page(h, userId: "ana", limit: 100)
            #expect(all.items.count == 5 && all.next == nil)
            #expect(zip(all.items, all.items.dropFirst()).allSatisfy { $0.at >= $1.at }, "newest first")
            #expect(Set(all.items.map(\.id)).count == 5)

            var pages: [[AdminAuditEvent]] = []
            var cursor: String?
            repeat {
                let next = try await page(h, userId: "ana", limit: 2, cursor: cursor)
                pages.append(next.items)
                cursor = next.next
                // A newer event recorded while paging does not show up in the older pages.
                if pages.count == 1 { try await record(h, .login, userId: "ana", at: 50, after: base) }
            } while cursor != nil && pages.count < 10
            #expect(pages.map(\.count) == [2, 2, 1])
            #expect(pages.joined().map(\.id) == all.items.map(\.id))

            let types = try await page(h, type: "login.password")
            #expect(types.items.map(\.userId) == ["bea", "bea"] && types.items.allSatisfy { $0.type == "login.password" })
            // `since` inclusive, `until` exclusive.
            let window = try await page(
                h, userId: "ana", since: base.addingTimeInterval(0.001), until: base.addingTimeInterval(0.003))
            #expect(window.items.count == 3, "\(window.items.map(\.at))")
            #expect(try await page(h, since: base.addingTimeInterval(0.010)).items.map(\.type) == ["login", "login.password"])
            #expect(try await page(h, until: base).items.isEmpty)

            for bad in ["x", Base64URL.encode(Array("[\"audit\",\"12\"]".utf8)), Base64URL.encode(Array("[\"audit\",\"x\",\"y\"]".utf8))] {
                try await expectRefusal(.invalidRequest) { try await page(h, cursor: bad) }
            }
            try await expectRefusal(.invalidRequest) { try await page(h, limit: 0) }
            try await expectRefusal(.invalidRequest) { try await page(h, limit: 101) }
        }
    }

    @Test func eachEventNamesItsActorAndNoneHoldsASecret() async throws {
        try await Harness.run { h in
            // user and device
            let enrolled = try await h.enroll(try await TestDevice())
            let userId = enrolled.session.userId
            // api_key
            let apiKey = try await h.newAPIKey(for: "com.example.demo")
            let confirmation = try await h.send(
                .post, "/v1/confirmations", json: ConfirmationTests.payment, headers: [.authorization: "ApiKey \(apiKey)"])
            #expect(confirmation.status == .created)
            // admin (the command line) and admin_token
            let token = try await h.admin.tokens.create(name: "ops", scope: .write, by: .commandLine).token
            let ops = try await h.admin.tokens.authenticate(bearer: token, ip: "192.0.2.9")
            let created = try await h.admin.apps.create(
                AdminAppInput(
                    clientId: "shop", publisher: "shops", redirectUris: ["https://shop.example/cb"], clientSecret: true),
                by: ops)
            let renewed = try await h.admin.apps.newSecret("shop", by: ops).clientSecret
            let newKey = try await h.admin.apps.createAPIKey("shop", by: ops).apiKey
            try await h.admin.users.reset(userId, by: ops)

            let events = try await page(h, limit: 100).items
            let kinds = Set(events.map(\.actor.kind.rawValue))
            #expect(kinds == ["user", "device", "api_key", "admin", "admin_token"], "\(kinds)")
            let byToken = events.filter { $0.actor.kind == .adminToken }
            #expect(
                byToken.map(\.type).sorted() == [
                    "admin.api_key.create", "admin.app.save", "admin.oidc_client.save", "admin.oidc_client.secret",
                    "admin.user.reset",
                ])
            #expect(byToken.allSatisfy { $0.actor.name == "ops" && $0.ip == "192.0.2.9" })
            #expect(events.first { $0.type == "admin.token.create" }?.actor == .admin)

            let json = String(decoding: try WireCoding.encoder().encode(AdminPage(items: events, next: nil)), as: UTF8.self)
            #expect(json.contains(#""actor":{"kind":"admin_token","name":"ops"}"#), "\(json)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let first = try #require((object["events"] as? [[String: Any]])?.first)
            #expect(
                Set(first.keys) == [
                    "id", "at", "type", "outcome", "actor", "userId", "deviceId", "clientId", "ip", "userAgent", "requestId",
                ])
            let log = try await h.admin.audit.log(since: nil, username: nil).map { "\($0)" }.joined(separator: "\n")
            let secrets = [
                token, String(token.dropFirst(4)), apiKey, try #require(created.clientSecret), renewed, newKey,
                enrolled.session.accessToken, enrolled.session.refreshToken,
            ]
            for secret in secrets {
                #expect(!json.contains(secret) && !log.contains(secret), "a secret in the audit")
            }
        }
    }

    @Test func rowsWrittenBeforeActorsHadIdsOrNamesStillRead() async throws {
        try await Harness.run { h in
            let provider = try #require(h.store as? SQLStore).provider
            let at = h.now.storedMilliseconds
            try await provider.write { database in
                for (id, actor, deviceId) in [("a", nil, nil), ("b", nil, "d1"), ("c", "admin", nil)] as [(String, String?, String?)] {
                    try await database.raw(
                        """
                        INSERT INTO audit_events (id, at_ms, event, outcome, user_id, device_id, actor)
                        VALUES (\(bind: id), \(bind: at), 'login', 'ok', 'ana', \(bind: deviceId), \(bind: actor))
                        """
                    ).run()
                }
            }
            let events = try await page(h, userId: "ana").items
            #expect(events.map(\.id) == ["c", "b", "a"])
            #expect(events.map(\.actor) == [.admin, .device, .user])
            #expect(try await h.store.auditEvents(since: nil, userId: "ana").map(\.actor) == [nil, nil, .admin])
        }
    }
}
