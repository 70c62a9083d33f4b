import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Story 18 and 19 through the SDK: recovery codes let a new device join while the old one cannot approve it, and the
/// old one then sees what happened; the user lists and ends sessions.
@Suite("Recovery codes, notices and sessions")
struct RecoveryTests {
    @Test("a second device joins with a recovery code while the first is unreachable; the first sees both notices")
    func joinsWithACode() async throws {
        try await LiveServer.run { server in
            let first = server.client(server.profile(), deviceName: "Ana's phone")
            let firstSession = try await server.register(first)
            await expectError(.stepUpRequired) { try await first.createRecoveryCodes() }
            try await first.stepUp(password: LiveServer.password)
            let codes = try await first.createRecoveryCodes()
            #expect(codes.count == 10)
            #expect(try await first.account().recoveryCodesRemaining == 10)

            // The first device is out of reach (it answers nothing); the second joins with a code, no approval asked.
            let second = server.client(server.profile(), deviceName: "Ana's new phone")
            await expectError(.server, serverCode: .invalidCredentials) {
                try await second.register(
                    username: "ana", password: LiveServer.password, pin: LiveServer.pin,
                    recoveryCode: "aaaa-bbbb-cccc")
            }
            #expect(try await second.status().registered == false)
            let session = try await second.register(
                username: "ana", password: LiveServer.password, pin: LiveServer.pin, recoveryCode: codes[0],
                onApprovalPending: { _ in Issue.record("a recovery code needs no approval") })
            #expect(session.userId == firstSession.userId)
            let secondId = try #require(session.deviceId)
            #expect(try await second.status().registered)
            #expect(try await second.login(prompt: "Log in").deviceId == secondId)
            #expect(try await second.account().recoveryCodesRemaining == 9)

            // Back in reach, the first device sees what happened, as notices beside (not among) its requests.
            #expect(try await first.pendingRequests().isEmpty)
            let notices = try await first.inbox().compactMap { entry -> SecurityNotice? in
                if case .notice(let notice) = entry { notice } else { nil }
            }
            #expect(notices.map(\.event) == [.deviceAdded, .recoveryCodeUsed])
            #expect(notices.allSatisfy { $0.detail.deviceId == secondId && $0.detail.deviceName == "Ana's new phone" })
            #expect(try await second.inbox().isEmpty)

            // Dismissed here, gone here only.
            try await first.dismiss(notices[0])
            #expect(try await first.inbox().map(\.id) == [notices[1].id])
            await expectError(.server, serverCode: .notFound) { try await first.dismiss(notices[0]) }
        }
    }

    @Test("the user lists the sessions and ends another one after a step-up")
    func sessions() async throws {
        try await LiveServer.run { server in
            let first = server.client(server.profile())
            try await server.register(first)
            try await first.stepUp(password: LiveServer.password)
            let code = try await first.createRecoveryCodes()[1]
            let second = server.client(server.profile(), deviceName: "Second")
            let secondSession = try await second.register(
                username: "ana", password: LiveServer.password, pin: LiveServer.pin, recoveryCode: code)

            let listed = try await second.sessions()
            #expect(listed.count == 2)
            let mine = try #require(listed.first { $0.current })
            #expect(mine.deviceId == secondSession.deviceId)
            let other = try #require(listed.first { !$0.current })
            await expectError(.stepUpRequired) { try await second.endSession(id: other.sessionId) }
            try await second.stepUp(password: LiveServer.password)
            try await second.endSession(id: other.sessionId)
            #expect(try await second.sessions().map(\.sessionId) == [mine.sessionId])
            // The first device's session is over: it unlocks again.
            await expectError(.reauthenticationRequired) { try await first.sessions() }
            #expect(try await first.inbox().contains { entry in
                if case .notice(let notice) = entry { notice.event == .sessionsEnded } else { false }
            })
            // Its own session, with the session alone; then it is forgotten here.
            try await second.endSession(id: mine.sessionId)
            await expectError(.reauthenticationRequired) { try await second.refresh() }
        }
    }
}
