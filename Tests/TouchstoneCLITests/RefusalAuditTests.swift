import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

/// DESIGN.md §2: "Every refusal is audited" — here, refusals of a device's own requests.
@Suite struct RefusalAuditTests {
    private struct AuditEntry: Decodable {
        var event: String
        var outcome: String
        var deviceId: String?
    }

    @Test
    func refusedRefreshAndChallengeAreAudited() async throws {
        try await withServer { server, client in
            let ana = try await EnrolledDevice.enrol(on: server, client: client)
            let unsigned = try await ana.refresh(ana.firstSession.refreshToken, signed: false)
            expectProblem(unsigned, status: 401, code: "device_proof_required")
            let revoked = try await server.admin(["revoke", ana.deviceId])
            try #require(revoked.status == 0, "\(revoked)")
            expectProblem(try await ana.requestChallenge(), status: 403, code: "device_revoked")

            let audit = try await server.admin(["audit", "--json"])
            let events = try #require(try audit.json([String: [AuditEntry]].self)["events"], "\(audit)")
            let outcomes = events.filter { $0.deviceId == ana.deviceId }.map(\.outcome)
            #expect(outcomes.contains("device_proof_required"), "\(outcomes)")
            #expect(outcomes.contains("device_revoked"), "\(outcomes)")
        }
    }
}
