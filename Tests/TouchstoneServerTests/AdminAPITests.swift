import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The admin API's authentication, its document and its routes (PROTOCOL "Administration API").
@Suite struct AdminAPITests {
    @Test func noUnknownOrRevokedTokenIsRefusedWithABearerChallenge() async throws {
        try await AdminHarness.run { h, admin in
            let revoked = try await admin.token("retired")
            try await h.runtime.services.admin.tokens.revoke(name: "retired", by: .commandLine)
            let refusals: [(String, HTTPFields)] = [
                ("none", [:]),
                ("unknown", [.authorization: "Bearer tsa_unknown"]),
                ("revoked", [.authorization: "Bearer \(revoked)"]),
                ("another scheme", [.authorization: "ApiKey \(try await admin.token("ops"))"]),
                ("empty", [.authorization: "Bearer "]),
            ]
            for (label, headers) in refusals {
                let response = try await admin.client.execute(uri: "/admin/v1/apps", method: .get, headers: headers)
                try h.expectProblem(response, 401, .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Bearer", "\(label)")
                #expect(response.headers[.requestId] != nil && response.headers[.xContentTypeOptions] == "nosniff", "\(label)")
            }
        }
    }

    @Test func aReadTokenReadsButChangesNothing() async throws {
        try await AdminHarness.run { h, admin in
            let reader = try await admin.token("auditor", scope: .read)
            #expect(try await admin.send(.get, "/admin/v1/apps", token: reader).status == .ok)
            let changes: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/admin/v1/apps", #"{"clientId":"com.example.shop","publisher":"shop"}"#),
                (.patch, "/admin/v1/apps/com.example.demo", #"{"name":"Renamed"}"#),
                (.delete, "/admin/v1/apps/com.example.demo", nil),
                (.post, "/admin/v1/apps/com.example.demo/api-keys", nil),
            ]
            for (method, path, body) in changes {
                let response = try await admin.send(method, path, raw: body, token: reader)
                try h.expectProblem(response, 403, .insufficientScope)
                #expect(response.headers[.wwwAuthenticate] == #"Bearer error="insufficient_scope""#, "\(method) \(path)")
            }
            let apps = try admin.json(try await admin.send(.get, "/admin/v1/apps", token: reader))
            let ids = try #require(apps["apps"] as? [[String: Any]]).compactMap { $0["clientId"] as? String }
            #expect(ids == ["com.example.demo"], "nothing was created or removed")
            let keys = try admin.json(try await admin.send(.get, "/admin/v1/apps/com.example.demo/api-keys", token: reader))
            #expect((keys["apiKeys"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func theDocumentIsServedWithoutATokenAndIsTheResource() async throws {
        try await AdminHarness.run { h, admin in
            let response = try await admin.send(.get, "/admin/v1/openapi.yaml")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/yaml")
            let text = String(buffer: response.body)
            #expect(text.hasPrefix("openapi: 3.1.0"))
            #expect(text == AdminRouter.openAPIDocument && text.contains("/admin/v1/webhooks/{webhookId}/test:"))
        }
    }

    @Test func thePublicRouterServesNoAdminRouteAndTheAdminRouterNoPublicOne() async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            for endpoint in AdminEndpoint.all {
                let path = endpoint.path(values: Array(repeating: "x", count: endpoint.template.filter { $0 == "{" }.count))
                let response = try await h.send(
                    HTTPRequest.Method(endpoint.method) ?? .get, path, raw: "{}", headers: [.authorization: "Bearer \(token)"])
                let problem = try h.expectProblem(response, 404, .notFound)
                #expect(problem.detail == nil, "\(endpoint) reached a route of the public router")
            }
            for path in ["/healthz", "/openapi.yaml", "/v1/apps/com.example.demo/policy"] {
                try h.expectProblem(try await admin.send(.get, path, token: token), 404, .notFound)
            }
        }
    }

    @Test func everyAdminEndpointIsDocumentedAndRouted() async throws {
        let documented = EndpointTableTests.documentedOperations(in: AdminRouter.openAPIDocument)
        let table = Set(AdminEndpoint.all.map(\.description))
        #expect(table == documented, "routed only: \(table.subtracting(documented)); documented only: \(documented.subtracting(table))")
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            for endpoint in AdminEndpoint.all {
                let path = endpoint.path(values: Array(repeating: "x", count: endpoint.template.filter { $0 == "{" }.count))
                let response = try await admin.send(HTTPRequest.Method(endpoint.method) ?? .get, path, raw: "{}", token: token)
                let unrouted =
                    response.status == .methodNotAllowed
                    || (response.status == .notFound
                        && (try? h.problem(response)).map { $0.code == .notFound && $0.detail == nil } == true)
                #expect(!unrouted, "\(endpoint) is not routed")
            }
        }
    }

    @Test func anAppIsCreatedReadChangedGivenANewSecretAndDeleted() async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            let created = try await admin.send(
                .post, "/admin/v1/apps",
                raw: """
                    {"clientId":"com.example.shop","publisher":"shop","name":"Shop","redirectUris":["https://shop.example/cb"],
                    "postLogoutRedirectUris":["https://shop.example/bye"],"clientSecret":true,"idTokenAlg":"ES256",
                    "policy":{"maxPinAttempts":3,"biometricAllowed":false}}
                    """, token: token)
            #expect(created.status == .created)
            #expect(created.headers[.cacheControl] == "no-store")
            let app = try admin.json(created)
            #expect(Set(app.keys) == AdminHarness.appMembers.union(["clientSecret"]))
            #expect(app["clientId"] as? String == "com.example.shop" && app["publisher"] as? String == "shop")
            #expect(app["name"] as? String == "Shop" && app["confidential"] as? Bool == true)
            #expect(app["redirectUris"] as? [String] == ["https://shop.example/cb"])
            #expect(app["postLogoutRedirectUris"] as? [String] == ["https://shop.example/bye"])
            let policy = try #require(app["policy"] as? [String: Any])
            #expect(policy["maxPinAttempts"] as? Int == 3 && policy["biometricAllowed"] as? Bool == false)
            #expect(policy["inactivityTimeoutSeconds"] as? Int == 900, "a member not given has its default")
            let secret = try #require(app["clientSecret"] as? String)
            let form = ["grant_type": "authorization_code", "code": "unknown", "redirect_uri": "https://shop.example/cb"]
            let authenticated = try await h.postForm("/oauth2/token", form, basic: ("com.example.shop", secret))
            #expect(try h.oauthError(authenticated) != "invalid_client", "the secret authenticates the client")

            let read = try admin.json(try await admin.send(.get, "/admin/v1/apps/com.example.shop", token: token))
            #expect(Set(read.keys) == AdminHarness.appMembers, "the secret is shown once")
            let list = try admin.json(try await admin.send(.get, "/admin/v1/apps", token: token))
            let ids = try #require(list["apps"] as? [[String: Any]]).compactMap { $0["clientId"] as? String }
            #expect(Set(ids) == ["com.example.demo", "com.example.shop"])

            let changed = try await admin.send(
                .patch, "/admin/v1/apps/com.example.shop", raw: #"{"name":"Shop 2","policy":{"inactivityTimeoutSeconds":600}}"#,
                token: token)
            #expect(changed.status == .ok)
            let after = try admin.json(changed)
            #expect(after["name"] as? String == "Shop 2" && after["confidential"] as? Bool == true)
            let changedPolicy = try #require(after["policy"] as? [String: Any])
            #expect(changedPolicy["inactivityTimeoutSeconds"] as? Int == 600 && changedPolicy["maxPinAttempts"] as? Int == 3)
            let published = try h.decode(AppPolicy.self, try await h.send(.get, "/v1/apps/com.example.shop/policy"))
            #expect(published.inactivityTimeoutSeconds == 600, "the public API serves the changed policy")

            let rotated = try await admin.send(.post, "/admin/v1/apps/com.example.shop/secret", token: token)
            #expect(rotated.status == .ok && rotated.headers[.cacheControl] == "no-store")
            let newSecret = try #require(try admin.json(rotated)["clientSecret"] as? String)
            #expect(newSecret != secret)
            let old = try await h.postForm("/oauth2/token", form, basic: ("com.example.shop", secret))
            #expect(try h.oauthError(old) == "invalid_client", "the old secret stopped working")
            let new = try await h.postForm("/oauth2/token", form, basic: ("com.example.shop", newSecret))
            #expect(try h.oauthError(new) != "invalid_client")

            #expect(try await admin.send(.delete, "/admin/v1/apps/com.example.shop", token: token).status == .noContent)
            try h.expectProblem(try await admin.send(.get, "/admin/v1/apps/com.example.shop", token: token), 404, .appNotFound)
            try h.expectProblem(try await h.send(.get, "/v1/apps/com.example.shop/policy"), 404, .appNotFound)
        }
    }

    @Test func anIdIsReadPercentDecodedFromThePath() async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            let created = try await admin.send(.post, "/admin/v1/apps", raw: #"{"clientId":"shop app/ä?","publisher":"shop"}"#, token: token)
            #expect(created.status == .created)
            let path = "/admin/v1/apps/" + PercentEncoding.unreserved("shop app/ä?")
            let read = try admin.json(try await admin.send(.get, path, token: token))
            #expect(read["clientId"] as? String == "shop app/ä?")
            #expect(try await admin.send(.post, path + "/api-keys", token: token).status == .created)
            #expect(try await admin.send(.delete, path, token: token).status == .noContent)
        }
    }

    @Test func anUnknownAppIsAppNotFoundOnEveryRoute() async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            let routes: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/admin/v1/apps/com.example.none", nil),
                (.patch, "/admin/v1/apps/com.example.none", #"{"name":"None"}"#),
                (.delete, "/admin/v1/apps/com.example.none", nil),
                (.post, "/admin/v1/apps/com.example.none/secret", nil),
                (.get, "/admin/v1/apps/com.example.none/api-keys", nil),
                (.post, "/admin/v1/apps/com.example.none/api-keys", nil),
                (.delete, "/admin/v1/apps/com.example.none/api-keys/key", nil),
            ]
            for (method, path, body) in routes {
                try h.expectProblem(try await admin.send(method, path, raw: body, token: token), 404, .appNotFound)
            }
        }
    }

    @Test(arguments: [
        #"{"clientId":"com.example.shop","publisher":"shop","policy":{"maxPinAttempts":21}}"#,
        #"{"clientId":"com.example.shop","publisher":"shop","policy":{"inactivityTimeoutSeconds":29}}"#,
        #"{"clientId":"com.example.shop","publisher":"shop","policy":{"biometricAllowed":false,"pinRequired":false}}"#,
        #"{"clientId":"com.example.shop","publisher":"shop","policy":{"attestation":"sometimes"}}"#,
        #"{"clientId":"com.example.shop","publisher":""}"#,
        #"{"clientId":"com.example.shop"}"#,
        #"{"clientId":"com.example.shop","publisher":"shop","clientSecret":true}"#,
        #"{"clientId":"com.example.shop","publisher":"shop","redirectUris":["https://shop.example/cb"],"idTokenAlg":"HS256"}"#,
        #"{"clientId":"com.example.demo","publisher":"shop"}"#,
        #"{"clientId":"com.example.shop","publisher":"shop","#,
    ])
    func badAppInputIsInvalidRequestAndStoresNothing(body: String) async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            try h.expectProblem(try await admin.send(.post, "/admin/v1/apps", raw: body, token: token), 400, .invalidRequest)
            try h.expectProblem(
                try await admin.send(.patch, "/admin/v1/apps/com.example.demo", raw: #"{"policy":{"maxPinAttempts":0}}"#, token: token),
                400, .invalidRequest)
            let apps = try #require(try admin.json(try await admin.send(.get, "/admin/v1/apps", token: token))["apps"] as? [[String: Any]])
            #expect(apps.compactMap { $0["clientId"] as? String } == ["com.example.demo"])
            let demo = try #require(apps.first?["policy"] as? [String: Any])
            #expect(demo["maxPinAttempts"] as? Int == 5 && demo["publisher"] as? String == "demo")
            let audit = try admin.json(try await admin.send(.get, "/admin/v1/audit?type=admin.app.save", token: token))
            #expect((audit["events"] as? [Any])?.isEmpty == true, "nothing was audited: nothing changed")
        }
    }

    @Test func apiKeysAreListedCreatedOnceAndRevoked() async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            let created = try await admin.send(.post, "/admin/v1/apps/com.example.demo/api-keys", token: token)
            #expect(created.status == .created && created.headers[.cacheControl] == "no-store")
            let key = try admin.json(created)
            #expect(Set(key.keys) == ["keyId", "apiKey"])
            let keyId = try #require(key["keyId"] as? String)
            let apiKey = try #require(key["apiKey"] as? String)
            let introspect = { try await h.send(.post, "/v1/introspect", json: ["token": "x"], headers: [.authorization: "ApiKey \(apiKey)"]) }
            #expect(try await introspect().status == .ok, "the key works")

            let list = try admin.json(try await admin.send(.get, "/admin/v1/apps/com.example.demo/api-keys", token: token))
            let keys = try #require(list["apiKeys"] as? [[String: Any]])
            #expect(keys.count == 1 && keys.first?["keyId"] as? String == keyId && keys.first?["createdAt"] is String)
            #expect(Set(keys.first?.keys.map { $0 } ?? []) == ["keyId", "createdAt"], "never the key itself")

            try h.expectProblem(
                try await admin.send(.delete, "/admin/v1/apps/com.example.demo/api-keys/unknown", token: token), 404, .notFound)
            #expect(try await admin.send(.delete, "/admin/v1/apps/com.example.demo/api-keys/\(keyId)", token: token).status == .noContent)
            try h.expectProblem(try await introspect(), 401, .unauthorized)
            let after = try admin.json(try await admin.send(.get, "/admin/v1/apps/com.example.demo/api-keys", token: token))
            #expect((after["apiKeys"] as? [Any])?.isEmpty == true)
            try h.expectProblem(
                try await admin.send(.delete, "/admin/v1/apps/com.example.demo/api-keys/\(keyId)", token: token), 404, .notFound)
        }
    }

    @Test func usersAreFoundByUsernameOrPrefixAPageAtATime() async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token(scope: .read)
            var ids: [String: String] = [:]
            for username in ["user5", "user1", "other", "user4", "user2", "user3"] {
                ids[username] = try await h.createAccount(username)
            }
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let query = "/admin/v1/users?prefix=user&limit=2" + (cursor.map { "&cursor=" + PercentEncoding.unreserved($0) } ?? "")
                let page = try admin.json(try await admin.send(.get, query, token: token))
                #expect(Set(page.keys) == ["users", "next"])
                let users = try #require(page["users"] as? [[String: Any]])
                #expect(users.count <= 2)
                for user in users {
                    #expect(Set(user.keys) == ["userId", "username", "createdAt"])
                    let username = try #require(user["username"] as? String)
                    #expect(user["userId"] as? String == ids[username])
                    seen.append(username)
                }
                cursor = page["next"] as? String
                #expect(cursor != nil || page["next"] is NSNull, "next is null on the last page")
                pages += 1
            } while cursor != nil && pages < 10
            #expect(seen == ["user1", "user2", "user3", "user4", "user5"])
            #expect(pages == 3)

            let all = try admin.json(try await admin.send(.get, "/admin/v1/users", token: token))
            #expect((all["users"] as? [[String: Any]])?.compactMap { $0["username"] as? String }.count == 6)
            let exact = try admin.json(try await admin.send(.get, "/admin/v1/users?username=user3", token: token))
            #expect((exact["users"] as? [[String: Any]])?.compactMap { $0["userId"] as? String } == [try #require(ids["user3"])])
            let none = try admin.json(try await admin.send(.get, "/admin/v1/users?username=user", token: token))
            #expect((none["users"] as? [Any])?.isEmpty == true && none["next"] is NSNull)

            for query in ["limit=0", "limit=101", "limit=ten", "cursor=nonsense", "username=user1&prefix=user"] {
                try h.expectProblem(try await admin.send(.get, "/admin/v1/users?\(query)", token: token), 400, .invalidRequest)
            }
        }
    }

    @Test func aUserIsShownWithDevicesSessionsEndedDevicesRevokedAndReset() async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            try await h.saveApp(AppPolicy(clientId: "com.example.open", publisher: "demo", newDeviceApproval: false))
            let enrolled = try await h.enroll(try await TestDevice(), clientId: "com.example.open")
            let tablet = try await h.enroll(try await TestDevice(name: "Tablet"), clientId: "com.example.open", createAccount: false)
            let bob = try await h.enroll(try await TestDevice(name: "Bob's phone"), username: "bob")
            let userId = try #require(try admin.json(try await admin.send(.get, "/admin/v1/users?username=ana", token: token))["users"]
                .flatMap { ($0 as? [[String: Any]])?.first?["userId"] as? String })

            let detail = try admin.json(try await admin.send(.get, "/admin/v1/users/\(userId)", token: token))
            #expect(Set(detail.keys) == ["userId", "username", "createdAt", "devices", "passkeys", "recoveryCodesRemaining"])
            #expect(detail["username"] as? String == "ana" && detail["recoveryCodesRemaining"] as? Int == 0)
            #expect((detail["passkeys"] as? [Any])?.isEmpty == true)
            let devices = try #require(detail["devices"] as? [[String: Any]])
            #expect(Set(devices.compactMap { $0["deviceId"] as? String }) == [enrolled.deviceId, tablet.deviceId])
            #expect(devices.allSatisfy { $0["active"] as? Bool == true && $0["clientId"] as? String == "com.example.open" })

            let sessions = try admin.json(try await admin.send(.get, "/admin/v1/users/\(userId)/sessions", token: token))
            let listed = try #require(sessions["sessions"] as? [[String: Any]]).compactMap { $0["sessionId"] as? String }
            #expect(Set(listed) == [try h.sessionId(enrolled.session), try h.sessionId(tablet.session)])
            let ended = try h.sessionId(tablet.session)
            #expect(try await admin.send(.delete, "/admin/v1/users/\(userId)/sessions/\(ended)", token: token).status == .noContent)
            try h.expectProblem(try await h.send(.get, "/v1/sessions", headers: h.bearer(tablet.session)), 401, .unauthorized)
            try h.expectProblem(
                try await admin.send(.delete, "/admin/v1/users/\(userId)/sessions/\(ended)", token: token), 404, .notFound)
            try h.expectProblem(
                try await admin.send(.delete, "/admin/v1/users/\(userId)/sessions/\(try h.sessionId(bob.session))", token: token),
                404, .notFound)

            #expect(
                try await admin.send(.delete, "/admin/v1/users/\(userId)/devices/\(tablet.deviceId)", token: token).status
                    == .noContent)
            let afterRevoke = try admin.json(try await admin.send(.get, "/admin/v1/users/\(userId)", token: token))
            let states = Dictionary(
                uniqueKeysWithValues: try #require(afterRevoke["devices"] as? [[String: Any]]).map {
                    ($0["deviceId"] as? String ?? "", $0["active"] as? Bool)
                })
            #expect(states == [enrolled.deviceId: true, tablet.deviceId: false])
            try h.expectProblem(
                try await admin.send(.delete, "/admin/v1/users/\(userId)/devices/\(tablet.deviceId)", token: token), 404, .notFound)
            try h.expectProblem(
                try await admin.send(.delete, "/admin/v1/users/\(userId)/devices/\(bob.deviceId)", token: token), 404, .notFound)

            #expect(try await admin.send(.post, "/admin/v1/users/\(userId)/reset", token: token).status == .noContent)
            let afterReset = try admin.json(try await admin.send(.get, "/admin/v1/users/\(userId)", token: token))
            #expect(try #require(afterReset["devices"] as? [[String: Any]]).allSatisfy { $0["active"] as? Bool == false })
            let left = try admin.json(try await admin.send(.get, "/admin/v1/users/\(userId)/sessions", token: token))
            #expect((left["sessions"] as? [Any])?.isEmpty == true)
            let bobs = try admin.json(try await admin.send(.get, "/admin/v1/users?username=bob", token: token))
            let bobId = try #require((bobs["users"] as? [[String: Any]])?.first?["userId"] as? String)
            let bobsDetail = try admin.json(try await admin.send(.get, "/admin/v1/users/\(bobId)", token: token))
            #expect((bobsDetail["devices"] as? [[String: Any]])?.first?["active"] as? Bool == true, "another user is untouched")
        }
    }

    @Test func anUnknownUserIsNotFoundOnEveryRoute() async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/admin/v1/users/nobody"), (.post, "/admin/v1/users/nobody/reset"),
                (.delete, "/admin/v1/users/nobody/devices/device"), (.get, "/admin/v1/users/nobody/sessions"),
                (.delete, "/admin/v1/users/nobody/sessions/session"),
            ]
            for (method, path) in routes {
                try h.expectProblem(try await admin.send(method, path, token: token), 404, .notFound)
            }
        }
    }

    @Test func everyChangeIsAuditedWithTheTokensNameNewestFirstAndFiltered() async throws {
        try await AdminHarness.run { h, admin in
            let ops = try await admin.token("ops")
            let reader = try await admin.token("auditor", scope: .read)
            let userId = try await h.createAccount("ana")
            let start = h.now
            let created = try await admin.send(.post, "/admin/v1/apps", raw: #"{"clientId":"com.example.shop","publisher":"shop"}"#, token: ops)
            #expect(created.status == .created)
            let requestId = try #require(created.headers[.requestId])
            h.clock.advance(by: 60)
            let middle = h.now
            #expect(try await admin.send(.post, "/admin/v1/users/\(userId)/reset", token: ops).status == .noContent)
            h.clock.advance(by: 60)
            #expect(try await admin.send(.post, "/admin/v1/apps/com.example.shop/api-keys", token: ops).status == .created)

            let page = try admin.json(try await admin.send(.get, "/admin/v1/audit?limit=100", token: reader))
            let events = try #require(page["events"] as? [[String: Any]])
            let changes = events.filter { ($0["type"] as? String)?.hasPrefix("admin.") == true && $0["type"] as? String != "admin.token.create" }
            #expect(changes.compactMap { $0["type"] as? String } == ["admin.api_key.create", "admin.user.reset", "admin.app.save"], "newest first")
            for event in changes {
                #expect(Set(event.keys) == ["id", "at", "type", "outcome", "actor", "userId", "deviceId", "clientId", "ip", "userAgent", "requestId"])
                let actor = try #require(event["actor"] as? [String: Any])
                #expect(actor["kind"] as? String == "admin_token" && actor["name"] as? String == "ops", "\(event)")
                #expect(event["outcome"] as? String == "ok")
            }
            #expect(changes.last?["requestId"] as? String == requestId && changes.last?["clientId"] as? String == "com.example.shop")
            #expect(changes[1]["userId"] as? String == userId)
            let text = String(decoding: try JSONSerialization.data(withJSONObject: events), as: UTF8.self)
            #expect(!text.contains("tsa_") && !text.contains("tsk_"), "never a secret")

            let byUser = try admin.json(try await admin.send(.get, "/admin/v1/audit?userId=\(userId)&type=admin.user.reset", token: reader))
            #expect((byUser["events"] as? [[String: Any]])?.count == 1)
            let since = ISO8601DateFormatter().string(from: middle)
            let until = ISO8601DateFormatter().string(from: middle.addingTimeInterval(60))
            let window = try admin.json(
                try await admin.send(.get, "/admin/v1/audit?since=\(since)&until=\(until)", token: reader))
            #expect((window["events"] as? [[String: Any]])?.compactMap { $0["type"] as? String } == ["admin.user.reset"], "since inclusive, until exclusive")
            let before = ISO8601DateFormatter().string(from: start.addingTimeInterval(1))
            let early = try admin.json(try await admin.send(.get, "/admin/v1/audit?until=\(before)&type=admin.app.save", token: reader))
            #expect((early["events"] as? [Any])?.count == 1)

            var types: [String] = []
            var cursor: String?
            repeat {
                let query = "/admin/v1/audit?limit=1&since=\(since)" + (cursor.map { "&cursor=" + PercentEncoding.unreserved($0) } ?? "")
                let page = try admin.json(try await admin.send(.get, query, token: reader))
                types += (page["events"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
                cursor = page["next"] as? String
            } while cursor != nil && types.count < 10
            #expect(types == ["admin.api_key.create", "admin.user.reset"])

            for query in ["since=yesterday", "until=2026-13-01T00:00:00Z", "limit=0", "cursor=nonsense"] {
                try h.expectProblem(try await admin.send(.get, "/admin/v1/audit?\(query)", token: reader), 400, .invalidRequest)
            }
        }
    }

    @Test func aWebhookIsCreatedWithItsSecretOnceListedTestedAndDeleted() async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            let created = try await admin.send(
                .post, "/admin/v1/webhooks",
                raw: #"{"url":"http://127.0.0.1:9/hooks","events":["pin.locked","device.added","pin.locked"]}"#, token: token)
            #expect(created.status == .created && created.headers[.cacheControl] == "no-store")
            let webhook = try admin.json(created)
            #expect(Set(webhook.keys) == ["webhookId", "url", "events", "secret"])
            #expect(webhook["url"] as? String == "http://127.0.0.1:9/hooks")
            #expect(Set(webhook["events"] as? [String] ?? []) == ["pin.locked", "device.added"])
            let secret = try #require(webhook["secret"] as? String)
            #expect(secret.hasPrefix("whsec_") && Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
            let webhookId = try #require(webhook["webhookId"] as? String)

            let list = try admin.json(try await admin.send(.get, "/admin/v1/webhooks", token: token))
            let listed = try #require(list["webhooks"] as? [[String: Any]])
            #expect(listed.compactMap { $0["webhookId"] as? String } == [webhookId])
            #expect(listed.first?["secret"] == nil, "the secret is shown once")

            #expect(try await admin.send(.post, "/admin/v1/webhooks/\(webhookId)/test", token: token).status == .accepted)
            try h.expectProblem(try await admin.send(.post, "/admin/v1/webhooks/unknown/test", token: token), 404, .notFound)
            try h.expectProblem(try await admin.send(.delete, "/admin/v1/webhooks/unknown", token: token), 404, .notFound)
            #expect(try await admin.send(.delete, "/admin/v1/webhooks/\(webhookId)", token: token).status == .noContent)
            try h.expectProblem(try await admin.send(.delete, "/admin/v1/webhooks/\(webhookId)", token: token), 404, .notFound)
            try h.expectProblem(try await admin.send(.post, "/admin/v1/webhooks/\(webhookId)/test", token: token), 404, .notFound)
            let empty = try admin.json(try await admin.send(.get, "/admin/v1/webhooks", token: token))
            #expect((empty["webhooks"] as? [Any])?.isEmpty == true)

            let audit = try admin.json(try await admin.send(.get, "/admin/v1/audit?type=admin.webhook.create", token: token))
            let actor = (audit["events"] as? [[String: Any]])?.first?["actor"] as? [String: Any]
            #expect(actor?["kind"] as? String == "admin_token" && actor?["name"] as? String == "ops")
        }
    }

    @Test(arguments: [
        #"{"url":"ftp://127.0.0.1/hooks","events":["pin.locked"]}"#,
        #"{"url":"http://example.com/hooks","events":["pin.locked"]}"#,
        #"{"url":"https://169.254.169.254/latest","events":["pin.locked"]}"#,
        #"{"url":"http://127.0.0.1:9/hooks","events":[]}"#,
        #"{"url":"http://127.0.0.1:9/hooks","events":["webhook.test"]}"#,
        #"{"url":"http://127.0.0.1:9/hooks"}"#,
        #"{"url":7,"events":["pin.locked"]}"#,
    ])
    func badWebhookInputIsInvalidRequestAndStoresNothing(body: String) async throws {
        try await AdminHarness.run { h, admin in
            let token = try await admin.token()
            try h.expectProblem(try await admin.send(.post, "/admin/v1/webhooks", raw: body, token: token), 400, .invalidRequest)
            let list = try admin.json(try await admin.send(.get, "/admin/v1/webhooks", token: token))
            #expect((list["webhooks"] as? [Any])?.isEmpty == true)
        }
    }
}

/// The admin API of a ``Harness``'s server, driven through its own router (the admin listener's), with admin tokens
/// made as `touchstone admin token create` makes them.
struct AdminHarness {
    let harness: Harness
    let client: any TestClientProtocol

    /// Runs `body` with a server (both stores, ``Harness/run(configure:logger:_:)``) and its admin API.
    static func run(
        configure: (inout ServerSettings) -> Void = { _ in }, _ body: @Sendable (Harness, AdminHarness) async throws -> Void
    ) async throws {
        try await Harness.run(configure: configure) { h in
            try await Application(router: h.runtime.adminRouter()).test(.router) { client in
                try await body(h, AdminHarness(harness: h, client: client))
            }
        }
    }

    /// The members of an app in every answer (`clientSecret` only in the one that made it).
    static let appMembers: Set<String> = [
        "clientId", "publisher", "name", "redirectUris", "postLogoutRedirectUris", "confidential", "policy",
    ]

    /// A new admin token named `name`.
    func token(_ name: String = "ops", scope: AdminScope = .write) async throws -> String {
        try await harness.runtime.services.admin.tokens.create(name: name, scope: scope, by: .commandLine).token
    }

    /// Sends a request with the JSON text `raw` as its body, and `Authorization: Bearer <token>` when a token is given.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ path: String, raw: String? = nil, token: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let token {
            headers[.authorization] = "Bearer \(token)"
        }
        return try await client.execute(uri: path, method: method, headers: headers, body: raw.map { ByteBuffer(string: $0) })
    }

    /// The answer's JSON object.
    func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], "\(response)")
    }
}
