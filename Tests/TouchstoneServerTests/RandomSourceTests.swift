import Foundation
import Logging
import Testing
import TouchstoneCrypto
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

    @Test(arguments: TestDatabase.kinds)
    func recoveryCodesComeFromTheRandomSource(_ kind: TestDatabase.Kind) async throws {
        let first = try await recoveryCodes(kind, random: SeededRandom(seed: 30))
        #expect(first.count == RecoveryCode.setSize)
        #expect(try await recoveryCodes(kind, random: SeededRandom(seed: 30)) == first)
        #expect(try await recoveryCodes(kind, random: SeededRandom(seed: 31)) != first)
    }

    /// `touchstone admin` draws from the random source it is given too: an OIDC client's secret, then an API key's id
    /// and the key, in that order.
    @Test(arguments: TestDatabase.kinds)
    func anAdministratorsSecretsAndIdsComeFromTheRandomSource(_ kind: TestDatabase.Kind) async throws {
        let (secret, apiKey) = try await TestDatabase.with(kind) { database in
            try await TouchstoneAdmin.with(
                database: try DatabaseLocation(database, poolSize: 2), clock: ManualClock(),
                random: SeededRandom(seed: 30), logger: Self.logger
            ) { admin in
                let secret = try await admin.apps.save(
                    AppPolicy(clientId: "shop", publisher: "shops"),
                    client: OIDCClientRegistration(
                        clientId: "shop", name: nil, redirectURIs: ["https://shop.example/cb"],
                        postLogoutRedirectURIs: [], confidential: true, idTokenAlgorithm: "ES256"),
                    by: .commandLine)
                return (secret, try await admin.apps.createAPIKey("shop", by: .commandLine))
            }
        }
        let expected = SeededRandom(seed: 30)
        #expect(secret == expected.token())
        #expect(apiKey.keyId == expected.recordID())
        #expect(apiKey.apiKey == "tsk_" + expected.token())
    }

    private static var logger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    /// Opens a server on a fresh database of `kind` drawing from `random`, and draws.
    private func draw(_ kind: TestDatabase.Kind, random: any RandomSource) async throws -> Drawn {
        try await withServices(kind, random: random) { services in
            let account = try await services.accounts.create(
                CreateAccountRequest(username: "ana", password: Harness.password), ip: "127.0.0.1")
            let webLogin = try await services.webLogins.start(
                WebLoginRequest(username: "ana"), browser: "test", ip: "127.0.0.1")
            return Drawn(
                userId: account.userId, webLoginId: webLogin.webLoginId, number: webLogin.number,
                pollSecret: webLogin.pollSecret)
        }
    }

    /// Opens a server on a fresh database of `kind` drawing from `random`, and makes Ana's recovery codes with a
    /// stepped-up token of her account.
    private func recoveryCodes(_ kind: TestDatabase.Kind, random: any RandomSource) async throws -> [String] {
        try await withServices(kind, random: random) { services in
            let account = try await services.accounts.create(
                CreateAccountRequest(username: "ana", password: Harness.password), ip: "127.0.0.1")
            let claims = AccessTokenClaims(
                iss: Harness.issuer, aud: "com.example.demo", sub: account.userId, sid: "session", did: nil,
                amr: [.password], acr: .aal1, auth_time: 0, scope: "privileged", cnf: nil, iat: 0, exp: 60, jti: "token")
            let session = SessionRecord(
                id: "session", userId: account.userId, clientId: "com.example.demo", amr: [.password], acr: .aal1,
                authTime: .distantPast, lastActivityAt: .distantPast, createdAt: .distantPast)
            return try await services.recovery.createCodes(
                by: AccessIdentity(claims: claims, session: session), ip: "127.0.0.1"
            ).codes
        }
    }

    /// Runs `body` with the services of a server on a fresh database of `kind` drawing from `random`.
    private func withServices<T: Sendable>(
        _ kind: TestDatabase.Kind, random: any RandomSource, _ body: (Services) async throws -> T
    ) async throws -> T {
        var settings = try ServerSettings(issuer: Harness.issuer)
        settings.insecureTestBcryptCost = Harness.bcryptCost
        return try await TestDatabase.with(kind) { database in
            let runtime = try await TouchstoneRuntime.open(
                database: try DatabaseLocation(database, poolSize: 2), settings: settings, clock: ManualClock(),
                random: random, logger: Self.logger)
            return try await runtime.run { try await body(runtime.services) }
        }
    }
}
