import Crypto
import Foundation
import Testing

@testable import TouchstoneStorage

/// The schema's steps: a released step is never edited, reordered or removed (databases out there have run it, and
/// `schema_migrations` records only its version); the schema changes by appending a step.
@Suite struct MigrationOrderTests {
    /// What pins a released step.
    struct ReleasedStep: Equatable, CustomStringConvertible {
        var version: Int
        var name: String
        /// SHA-256 of the statements, each followed by a NUL, in lowercase hexadecimal.
        var statementsSHA256: String

        var description: String { "\(version) \(name) \(statementsSHA256)" }
    }

    /// Every released step, oldest first. Releasing a step appends its line; no line here ever changes.
    static let released = [
        ReleasedStep(
            version: 1, name: "initial_schema",
            statementsSHA256: "40eaf2c9ef7ace4ed405ad0056cf0fc2ded1813595b058bfab02c41ff5b93927"),
        ReleasedStep(
            version: 2, name: "inbox_and_legacy_keys",
            statementsSHA256: "589c077a66ef6b67c8fdf5445b93951d963c85f7fbc52aee0e5957420e5b3208"),
        ReleasedStep(
            version: 3, name: "passkeys",
            statementsSHA256: "40990fd13f526116eafaf8a85202560a7cc63644fc3f1e94445b3ab8d92f39da"),
        ReleasedStep(
            version: 4, name: "approvals_and_compromise",
            statementsSHA256: "3d3359383e8e0c5ff721cfa9436a7e5b0257486882f316e54010cece9038c156"),
        ReleasedStep(
            version: 5, name: "openid_provider",
            statementsSHA256: "c4632ba2fe5e4bdacf8088038e60fc07474ba029af66aeafa856e9cc743b6878"),
        ReleasedStep(
            version: 6, name: "rate_limits_and_audit_context",
            statementsSHA256: "ff490e59ed990cfbe1211ffc4eef596b6ecbe0daa05b63218c1e9da974439223"),
        ReleasedStep(
            version: 7, name: "key_attestation",
            statementsSHA256: "7506d3b57486a9938b88a1998b87d13bb3c7162ea5fa638d08f2278f00279c87"),
        ReleasedStep(
            version: 8, name: "recovery_codes_and_notices",
            statementsSHA256: "54f82a41c7e1d7befef1f187a522c6ddf4d843d3537da42008feafd297f5bf76"),
        ReleasedStep(
            version: 9, name: "attested_build",
            statementsSHA256: "e6f98a0585180c9ad85b2b6b4c69f272907e57f91a0d2bcaf1398b37417407ed"),
        ReleasedStep(
            version: 10, name: "push",
            statementsSHA256: "2f58d3ded1a8fd78f0024fb179408336eb1bba7c1ecad66ffe183576a2c495b9"),
        ReleasedStep(
            version: 11, name: "client_keys_and_dpop",
            statementsSHA256: "5158b99f0e2f0419c1ec4185f977845f480a63986d7dd851d1f6b126d3d2d264"),
        ReleasedStep(
            version: 12, name: "ciba",
            statementsSHA256: "6f10decec94e7676255943d511f2934578cf24718f149ecada9edfca96d1afab"),
        ReleasedStep(
            version: 13, name: "payment_details_at_sign_in",
            statementsSHA256: "bc440ca809ed20cf5524718fea6c07e765ce6aa5008c9565555560c5b593cffb"),
        ReleasedStep(
            version: 14, name: "admin_tokens",
            statementsSHA256: "5d287e9cc362611139ef47a09e8f4444f00e9374681e2481d94ec1ea4c71dda3"),
        ReleasedStep(
            version: 15, name: "webhooks",
            statementsSHA256: "eb1da64ecd637af19d245100ecd06c28f7b332ed4ce72be459085c0046d7cb1e"),
    ]

    static func pin(_ migration: Migration) -> ReleasedStep {
        let text = migration.statements.map { $0 + "\0" }.joined()
        let digest = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        return ReleasedStep(version: migration.version, name: migration.name, statementsSHA256: digest)
    }

    @Test func releasedStepsKeepTheirVersionNameStatementsAndPlace() {
        #expect(Migrations.all.count >= Self.released.count, "a released step was removed")
        #expect(Migrations.all.prefix(Self.released.count).map(Self.pin) == Self.released)
    }

    @Test func versionsCountUpFromOneWithoutGapsAndNamesAreUnique() {
        #expect(Migrations.all.map(\.version) == Array(1...Migrations.all.count))
        #expect(Set(Migrations.all.map(\.name)).count == Migrations.all.count)
    }

    @Test func aMigratedDatabaseRecordsEveryVersionAndMigratingAgainRunsNothing() async throws {
        try await Harness.run { h in
            let store = try #require(h.store as? SQLStore)
            func recorded() async throws -> [Int] {
                try await store.provider.read { database in
                    try await database.raw("SELECT version FROM schema_migrations ORDER BY version").all()
                        .map { try $0.int("version") }
                }
            }
            #expect(try await recorded() == Migrations.all.map(\.version))
            // Running a step again would fail (its tables exist): each is skipped as recorded.
            try await store.migrate()
            #expect(try await recorded() == Migrations.all.map(\.version))
        }
    }
}
