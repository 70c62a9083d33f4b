import Foundation
import HTTPTypes
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// Users through the admin services (PROTOCOL "Administration API"): pages by username with cursors that hold under
/// inserts, one user's detail, and a device revoked, a session ended or a user reset with the notices and endings the
/// user's own action would have; on both stores.
@Suite struct AdminUserServiceTests {
    /// Stores users straight in the store (no password to hash), by these usernames.
    private func addUsers(_ h: Harness, _ usernames: [String]) async throws {
        for username in usernames {
            try await h.store.createUser(
                UserRecord(id: UUID().uuidString.lowercased(), username: username, passwordHash: "-", createdAt: h.now))
        }
    }

    /// Every page of a listing, following `next`.
    private func allPages(
        _ h: Harness, prefix: String? = nil, limit: Int, between: (Int) async throws -> Void = { _ in }
    ) async throws -> [[String]] {
        var pages: [[String]] = []
        var cursor: String?
        repeat {
            let page = try await h.admin.users.users(username: nil, prefix: prefix, limit: limit, cursor: cursor)
            pages.append(page.items.map(\.username))
            cursor = page.next
            try await between(pages.count)
        } while cursor != nil && pages.count < 20
        return pages
    }

    @Test func usersPageByUsernameWithCursorsThatHoldUnderInserts() async throws {
        try await Harness.run { h in
            try await addUsers(h, ["bea", "ana", "cai", "dan", "eve", "fay", "gus"])
            #expect(try await allPages(h, limit: 3) == [["ana", "bea", "cai"], ["dan", "eve", "fay"], ["gus"]])
            #expect(try await allPages(h, limit: 7) == [["ana", "bea", "cai", "dan", "eve", "fay", "gus"]])
            #expect(try await h.admin.users.users(username: nil, prefix: nil, limit: nil, cursor: nil).next == nil)

            // Users added while paging before the cursor are not shown again, nor do they shift what follows; those
            // after it come in their place.
            let paged = try await allPages(h, limit: 2) { pages in
                if pages == 1 { try await addUsers(h, ["aaron", "bo", "zed"]) }
            }
            #expect(paged == [["ana", "bea"], ["bo", "cai"], ["dan", "eve"], ["fay", "gus"], ["zed"]])

            // Exactly one username, or a prefix (`_` and `%` are themselves).
            try await addUsers(h, ["an_a", "anna"])
            let exact = try await h.admin.users.users(username: "ana", prefix: nil, limit: nil, cursor: nil)
            #expect(exact.items.map(\.username) == ["ana"] && exact.next == nil)
            let prefixed = try await allPages(h, prefix: "an", limit: 2)
            #expect(prefixed.map(\.count) == [2, 1] && Set(prefixed.joined()) == ["an_a", "ana", "anna"], "\(prefixed)")
            #expect(try await allPages(h, prefix: "an_", limit: 5) == [["an_a"]])
            #expect(try await allPages(h, prefix: "x", limit: 5) == [[]])
            // A prefix is compared by code points, as SQL counts them: "jose" + a combining acute accent is five.
            try await addUsers(h, ["jose\u{301}"])
            #expect(try await allPages(h, prefix: "jose\u{301}", limit: 5) == [["jose\u{301}"]])

            // JSON: `next` is null on the last page.
            let last = try await h.admin.users.users(username: "ana", prefix: nil, limit: nil, cursor: nil)
            let json = try #require(try JSONSerialization.jsonObject(with: WireCoding.encoder().encode(last)) as? [String: Any])
            #expect(Set(json.keys) == ["users", "next"] && json["next"] is NSNull)
        }
    }

    @Test func aMalformedCursorOrLimitIsAnInvalidRequest() async throws {
        try await Harness.run { h in
            try await addUsers(h, ["ana", "bea"])
            for type in [AuditEventType.login, .refresh] {
                try await h.store.audit(
                    AuditEvent(at: h.now, event: type, outcome: .ok, userId: "ana", clientId: nil, ip: nil, detail: nil))
            }
            let users = h.admin.users
            let next = try #require(try await users.users(username: nil, prefix: nil, limit: 1, cursor: nil).next)
            let auditNext = try #require(
                try await h.admin.audit.events(userId: nil, type: nil, since: nil, until: nil, limit: 1, cursor: nil).next)
            for cursor in ["", "not base64!", Base64URL.encode(Array("[\"users\"]".utf8)), String(next.dropLast(2)), auditNext]
            {
                try await expectRefusal(.invalidRequest) {
                    try await users.users(username: nil, prefix: nil, limit: 1, cursor: cursor)
                }
            }
            for limit in [0, 101, -1] {
                try await expectRefusal(.invalidRequest) {
                    try await users.users(username: nil, prefix: nil, limit: limit, cursor: nil)
                }
            }
            try await expectRefusal(.invalidRequest) {
                try await users.users(username: "ana", prefix: "a", limit: nil, cursor: nil)
            }
            #expect(try await users.users(username: nil, prefix: nil, limit: 100, cursor: next).items.map(\.username) == ["bea"])
        }
    }

    @Test func aUsersDetailHoldsEveryDevicePasskeyAndRecoveryCodeCount() async throws {
        try await Harness.run { h in
            let phone = try await TestDevice()
            let enrolled = try await h.enroll(phone)
            let userId = enrolled.session.userId
            let codes = try await h.createRecoveryCodes(enrolled.session)
            let detail = try await h.admin.users.user(userId)
            #expect(detail.userId == userId && detail.username == "ana")
            #expect(detail.recoveryCodesRemaining == codes.count && !codes.isEmpty)
            #expect(detail.passkeys.isEmpty)
            let device = try #require(detail.devices.first)
            #expect(detail.devices.count == 1)
            #expect(device.deviceId == enrolled.deviceId && device.clientId == "com.example.demo")
            #expect(device.name == phone.description.name && device.model == phone.description.model)
            #expect(device.biometric && device.active && !device.pinLocked && device.attestation == nil)
            let json = try #require(
                try JSONSerialization.jsonObject(with: WireCoding.encoder().encode(detail)) as? [String: Any])
            let deviceJSON = try #require((json["devices"] as? [[String: Any]])?.first)
            #expect(
                Set(deviceJSON.keys) == [
                    "deviceId", "clientId", "name", "model", "createdAt", "lastUsedAt", "biometric", "attestation",
                    "pinLocked", "active",
                ])

            try await h.admin.users.revokeDevice(enrolled.deviceId, of: userId, by: .commandLine)
            #expect(try await h.admin.users.user(userId).devices.map(\.active) == [false])
            try await expectRefusal(.notFound) { try await h.admin.users.user("no-such-user") }
        }
    }

    @Test func anAdministratorsRevocationEndsAndNotifiesAsTheUsersOwnRemovalDoes() async throws {
        try await Harness.run { h in
            let scene = try await SecurityNoticeTests().makeScene(h)
            let userId = scene.phoneSession.userId
            for notice in try await h.notices(scene.phone, deviceId: scene.phoneId) {
                _ = try await h.dismiss(notice.id, device: scene.phone, deviceId: scene.phoneId)
            }
            let other = try await h.enroll(try await TestDevice(), username: "bea")
            try await expectRefusal(.notFound) {
                try await h.admin.users.revokeDevice(other.deviceId, of: userId, by: .commandLine)
            }
            try await expectRefusal(.notFound) {
                try await h.admin.users.revokeDevice(scene.tabletId, of: "no-such-user", by: .commandLine)
            }

            try await h.admin.users.revokeDevice(scene.tabletId, of: userId, by: .commandLine)
            // The phone hears of it as it hears of the user removing the tablet: device_removed naming the tablet.
            let notices = try await h.notices(scene.phone, deviceId: scene.phoneId)
            #expect(notices.map(\.event) == [.deviceRemoved])
            #expect(notices.first?.detail.deviceId == scene.tabletId)
            #expect(notices.first?.detail.deviceName == "Ana's tablet")
            let account = try await h.storedNotices(userId: userId).filter { $0.deviceId == nil }.map(\.event)
            #expect(account.last == "device_removed", "the account's own list has it too")
            // The tablet's sessions are over.
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(scene.tabletSession)).status == .unauthorized)
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(scene.phoneSession)).status == .ok)
            try await expectRefusal(.notFound) {
                try await h.admin.users.revokeDevice(scene.tabletId, of: userId, by: .commandLine)
            }
            let event = try #require(
                try await h.store.auditEvents(since: nil, userId: userId).first { $0.event == .deviceRevoke })
            #expect(event.deviceId == scene.tabletId && event.actor == .admin && event.ip == "admin")
        }
    }

    @Test func sessionsAreListedAndEndedWithANotice() async throws {
        try await Harness.run { h in
            let scene = try await SecurityNoticeTests().makeScene(h)
            let userId = scene.phoneSession.userId
            let tabletSid = try h.sessionId(scene.tabletSession)
            let listed = try await h.admin.users.sessions(of: userId).sessions
            #expect(Set(listed.map(\.sessionId)) == [try h.sessionId(scene.phoneSession), tabletSid])
            #expect(listed.allSatisfy { !$0.current })
            for notice in try await h.notices(scene.phone, deviceId: scene.phoneId) {
                _ = try await h.dismiss(notice.id, device: scene.phone, deviceId: scene.phoneId)
            }

            try await h.admin.users.endSession(tabletSid, of: userId, by: .commandLine)
            #expect(try await h.admin.users.sessions(of: userId).sessions.map(\.sessionId) == [try h.sessionId(scene.phoneSession)])
            #expect(try await h.send(.get, "/v1/devices", headers: h.bearer(scene.tabletSession)).status == .unauthorized)
            #expect(try await h.notices(scene.phone, deviceId: scene.phoneId).map(\.event) == [.sessionsEnded])
            try await expectRefusal(.notFound) { try await h.admin.users.endSession(tabletSid, of: userId, by: .commandLine) }
            try await expectRefusal(.notFound) { try await h.admin.users.sessions(of: "no-such-user") }
            let other = try await h.enroll(try await TestDevice(), username: "bea")
            try await expectRefusal(.notFound) {
                try await h.admin.users.endSession(try h.sessionId(other.session), of: userId, by: .commandLine)
            }
        }
    }

    @Test func aResetRevokesEverythingAndIsAuditedAsTheCallers() async throws {
        try await Harness.run { h in
            let enrolled = try await h.enroll(try await TestDevice())
            let userId = enrolled.session.userId
            let caller = AdminCaller(actor: .adminToken(name: "helpdesk"), ip: "192.0.2.9", scope: .write)
            try await h.admin.users.reset(userId, by: caller)
            let detail = try await h.admin.users.user(userId)
            #expect(detail.devices.allSatisfy { !$0.active } && detail.recoveryCodesRemaining == 0)
            #expect(try await h.admin.users.sessions(of: userId).sessions.isEmpty)
            let event = try #require(
                try await h.store.auditEvents(since: nil, userId: userId).first { $0.event == .adminUserReset })
            #expect(event.actor == caller.actor && event.ip == "192.0.2.9" && event.detail == "ana")
            try await expectRefusal(.notFound) { try await h.admin.users.reset("no-such-user", by: caller) }
        }
    }
}
