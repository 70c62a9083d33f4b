import Foundation
import Synchronization
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneServer

/// A login's access token is signed only once its transaction has committed (issue 30, point 6): a login refused
/// there costs no signature.
@Suite struct LoginSigningTests {
    @Test func aLoginRefusedAtItsCommitPreparesItsSessionButSignsNoAccessToken() async throws {
        try await Harness.run { h in
            let device = try await TestDevice()
            let enrolled = try await h.enroll(device)
            let challenge = try await h.challenge(enrolled.deviceId)
            let assertion = try await device.assertion(deviceId: enrolled.deviceId, challenge: challenge, now: h.now)
            let request = AssertionLoginRequest(clientId: "com.example.demo", assertion: assertion)
            // The harness's server again, drawing from a source that counts: an access token draws its `jti`.
            let random = CountingRandom()
            let shared = h.runtime.environment
            let services = Services(
                environment: ServiceEnvironment(
                    store: shared.store, clock: shared.clock, random: random, settings: shared.settings,
                    hasher: shared.hasher, signer: shared.signer, logger: shared.logger, metrics: shared.metrics))

            let accepted = try await random.counting { _ = try await services.logins.login(request, ip: "127.0.0.1") }
            let other = services.sessionIssuer.prepare(
                userId: enrolled.session.userId, device: nil, clientId: "com.example.demo", amr: ["bio"], acr: "aal2",
                ip: nil)
            let signing = try await random.counting {
                _ = try await services.sessionIssuer.accessToken(for: other.record, jkt: nil, scope: "session", lifetime: 60)
            }
            // The same assertion again passes every check before the commit, which finds its challenge spent.
            let refused = await random.counting {
                await #expect(throws: ProblemError.challengeInvalid) {
                    try await services.logins.login(request, ip: "127.0.0.1")
                }
            }
            #expect(signing > 0)
            #expect(refused == accepted - signing)
        }
    }
}

/// The system's random source, counting its draws.
private final class CountingRandom: RandomSource {
    private let draws = Atomic(0)

    func next() -> UInt64 {
        draws.add(1, ordering: .relaxed)
        return SystemRandom().next()
    }

    /// How many draws `body` makes.
    func counting(_ body: () async throws -> Void) async rethrows -> Int {
        let before = draws.load(ordering: .relaxed)
        try await body()
        return draws.load(ordering: .relaxed) - before
    }
}
