import Foundation
import Testing
import TouchstoneTestSupport

/// `touchstone bench` (DESIGN §7): the report's shape and that logins happened without errors. No speed is asserted;
/// the numbers depend on the machine.
@Suite struct BenchTests {
    /// The members `--json` prints, exactly.
    static let members: Set<String> = [
        "loginsPerSecond", "latencyMs", "errors", "verifyPerSecond", "devices", "concurrency", "durationSeconds",
        "serverRssBytes", "serverCpuMicrosecondsPerLogin", "serverCpuVerificationsPerLogin",
    ]

    struct Report: Decodable {
        struct Latency: Decodable {
            var p50: Double
            var p90: Double
            var p99: Double
            var max: Double
        }

        var loginsPerSecond: Double
        var latencyMs: Latency
        var errors: [String: Int]
        var verifyPerSecond: Double
        var devices: Int
        var concurrency: Int
        var durationSeconds: Double
        var serverRssBytes: Int?
        var serverCpuMicrosecondsPerLogin: Double?
        var serverCpuVerificationsPerLogin: Double?
    }

    @Test(arguments: TestDatabase.kinds)
    func inProcessBenchLogsInWithoutErrors(_ kind: TestDatabase.Kind) async throws {
        let directory = try ScratchDirectory()
        let result = try await TestDatabase.with(kind) { database in
            // SQLite without --database: the bench makes its own temporary file.
            let arguments = ["bench", "--duration", "2", "--devices", "20", "--json"]
                + (kind == .sqlite ? [] : ["--database", database])
            return try await TouchstoneExecutable.run(arguments, in: directory, timeout: 300)
        }
        try #require(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Self.members, "\(result.stdout)")
        #expect(Set((object["latencyMs"] as? [String: Any] ?? [:]).keys) == ["p50", "p90", "p99", "max"])
        let report = try result.json(Report.self)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.loginsPerSecond > 0)
        #expect(report.devices == 20 && report.concurrency == 32 && report.durationSeconds == 2)
        #expect(report.verifyPerSecond > 0)
        let latency = report.latencyMs
        #expect(latency.p50 > 0 && latency.p50 <= latency.p90 && latency.p90 <= latency.p99 && latency.p99 <= latency.max)
        let rss = try #require(report.serverRssBytes, "in-process mode reports the server's RSS")
        #expect(rss > 1_000_000)
        // The server's CPU is not told apart from the load generator's in one process.
        #expect(object["serverCpuMicrosecondsPerLogin"] is NSNull && object["serverCpuVerificationsPerLogin"] is NSNull)
        // The progress line went to standard error, never into the JSON.
        #expect(result.stderr.contains("logins"), "\(result.stderr)")
        // The bench's own database is gone afterwards: nothing is left in the working directory either.
        let left = try directory.fileNames()
        #expect(left.allSatisfy { $0.hasPrefix("run-") }, "\(left)")
    }

    @Test func benchAgainstAServerEnrolsOverTheProtocolAndReportsNoRSS() async throws {
        // The load comes from one address: the server's per-address limit is off for it.
        try await withServer(["--rate-limit", "0"]) { server, _ in
            let result = try await TouchstoneExecutable.run(
                ["bench", "--server", server.baseURL.absoluteString, "--devices", "2", "--concurrency", "4",
                 "--duration", "1", "--json"],
                in: server.directory, timeout: 300)
            try #require(result.status == 0, "\(result)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(Set(object.keys) == Self.members, "\(result.stdout)")
            #expect(object["serverRssBytes"] is NSNull, "\(result.stdout)")
            #expect(object["serverCpuMicrosecondsPerLogin"] is NSNull, "\(result.stdout)")
            let report = try result.json(Report.self)
            #expect(report.errors.isEmpty, "\(report.errors)")
            #expect(report.loginsPerSecond > 0 && report.devices == 2 && report.concurrency == 4)

            // The devices went through real enrolment: the server holds them, biometric, under the demo app.
            let listed = try await server.admin(["devices", "--json"])
            try #require(listed.status == 0, "\(listed)")
            let devices = try #require(
                try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: [[String: Any]]])["devices"]
            let bench = try #require(devices).filter { ($0["username"] as? String)?.hasPrefix("bench-") == true }
            #expect(bench.count == 2, "\(listed.stdout)")
            #expect(bench.allSatisfy { $0["biometric"] as? Bool == true && $0["clientId"] as? String == "com.example.demo" })
        }
    }

    @Test func benchWithTheServersPidReportsItsCPUPerLoginAndMemory() async throws {
        try await withServer(["--rate-limit", "0"]) { server, _ in
            let result = try await TouchstoneExecutable.run(
                ["bench", "--server", server.baseURL.absoluteString, "--server-pid", String(server.pid), "--devices", "2",
                 "--concurrency", "4", "--duration", "2", "--json"],
                in: server.directory, timeout: 300)
            try #require(result.status == 0, "\(result)")
            let report = try result.json(Report.self)
            #expect(report.errors.isEmpty, "\(report.errors)")
            let micros = try #require(report.serverCpuMicrosecondsPerLogin, "\(result.stdout)")
            let verifications = try #require(report.serverCpuVerificationsPerLogin, "\(result.stdout)")
            // Some CPU, and far less than a second of it (the numbers themselves depend on the machine and its load).
            #expect(micros > 0 && micros < 1_000_000, "\(result.stdout)")
            #expect(verifications > 0, "\(result.stdout)")
            // Both are the same measurement: one is the other in this run's verify time.
            let expected = micros * report.verifyPerSecond / 1_000_000
            #expect(abs(verifications - expected) <= 0.01 + expected * 0.001, "\(result.stdout)")
            let rss = try #require(report.serverRssBytes, "\(result.stdout)")
            #expect(rss > 1_000_000)
        }
    }

    @Test func benchRefusesAServerPidWithoutAServerOrThatIsNoProcess() async throws {
        let directory = try ScratchDirectory()
        let inProcess = try await TouchstoneExecutable.run(["bench", "--server-pid", "1"], in: directory)
        #expect(inProcess.status != 0)
        #expect(inProcess.stderr.contains("--server-pid"), "\(inProcess)")
        // Process ids stop well below 2^31 - 1 (pid_max is at most 2^22).
        let gone = try await TouchstoneExecutable.run(
            ["bench", "--server", "http://127.0.0.1:9", "--server-pid", "2147483647"], in: directory)
        #expect(gone.status != 0)
        #expect(gone.stderr.contains("no such process"), "\(gone)")
    }

    @Test func benchRefusesDatabaseWithServer() async throws {
        let directory = try ScratchDirectory()
        let result = try await TouchstoneExecutable.run(
            ["bench", "--server", "http://127.0.0.1:9", "--database", "x.sqlite"], in: directory)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--database"), "\(result)")
    }
}
