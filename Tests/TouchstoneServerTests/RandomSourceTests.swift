import Foundation
import Logging
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDomain
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// The services draw their ids and secrets from the random source the server is given (STYLE rule 7), so a test can
/// pin them.
@Suite struct RandomSourceTests {
    /// What one server draws: a new account's id, then a web login's id, number and poll secret.
    private struct Drawn: Equatable {
        var userId: String
        var webLoginId: String
        var number: Int
        var pollSecret: String
    }

    @Test(arguments: TestDatabase.kinds)
    func twoServersGivenTheSameSeedDrawTheSameIdsAndSecrets(_ kind: TestDatabase.Kind) async throws {
        let first = try await draw(kind, random: SeededRandom(seed: 30))
        let again = try await draw(kind, random: SeededRandom(seed: 30))
        #expect(first == again)
        // The account's id is the first thing drawn.
        #expect(first.userId == SeededRandom(seed: 30).recordID())
        #expect(try await draw(kind, random: SeededRandom(seed: 31)) != first)
    }

    @Test func identifiersFromARandomSourceAreVersion4AndVersion7UUIDs() throws {
        let random = SeededRandom(seed: 1)
        let id = try #require(UUID(uuidString: random.recordID())).uuid
        #expect(id.6 >> 4 == 4 && id.8 >> 6 == 0b10)
        let at = Date(timeIntervalSince1970: 1_800_000_000.5)
        let ordered = random.timeOrderedID(at: at)
        let uuid = try #require(UUID(uuidString: ordered)).uuid
        #expect(ordered == ordered.lowercased())
        #expect(uuid.6 >> 4 == 7 && uuid.8 >> 6 == 0b10)
        let milliseconds = [uuid.0, uuid.1, uuid.2, uuid.3, uuid.4, uuid.5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_800_000_000_500)
        #expect(Base64URL.decode(random.token())?.count == 32)
    }

    /// Opens a server on a fresh database of `kind` drawing from `random`, and draws.
    private func draw(_ kind: TestDatabase.Kind, random: any RandomSource) async throws -> Drawn {
        var settings = try ServerSettings(issuer: Harness.issuer)
        settings.insecureTestBcryptCost = Harness.bcryptCost
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return try await TestDatabase.with(kind) { database in
            let runtime = try await TouchstoneRuntime.open(
                database: try DatabaseLocation(database, poolSize: 2), settings: settings, clock: ManualClock(),
                random: random, logger: logger)
            return try await runtime.run {
                let services = runtime.services
                let account = try await services.accounts.create(
                    CreateAccountRequest(username: "ana", password: Harness.password), ip: "127.0.0.1")
                let webLogin = try await services.webLogins.start(
                    WebLoginRequest(username: "ana"), browser: "test", ip: "127.0.0.1")
                return Drawn(
                    userId: account.userId, webLoginId: webLogin.webLoginId, number: webLogin.number,
                    pollSecret: webLogin.pollSecret)
            }
        }
    }
}
