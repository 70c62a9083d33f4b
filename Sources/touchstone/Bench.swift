import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import TouchstoneBench
import TouchstoneBenchSeed
import TouchstoneDomain
import TouchstoneServer
import TouchstoneStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure biometric login throughput and latency.",
        discussion: """
            Without --server, starts a server in this process on 127.0.0.1 (an ephemeral port) on a temporary SQLite \
            database, or on --database, and writes the N users and devices straight into it (a documented fast path: \
            the rows enrolment would write, without its bcrypt work). With --server, creates the accounts and enrols \
            the devices over the v1 protocol with app com.example.demo. Then runs C concurrent loops of biometric \
            login (POST /v1/challenges, sign, POST /v1/sessions) for the duration.
            """)

    @Option(help: "How many users and devices to enrol (not timed).")
    var devices = 1000

    @Option(help: "How many logins run at once.")
    var concurrency = 32

    @Option(help: "How long to run logins, in seconds.")
    var duration: Double = 20

    @Option(
        help: """
            In-process mode: a SQLite file path or a postgres:// URL (default: a temporary SQLite file, removed \
            afterwards). The bench's users and devices stay in a database named here.
            """)
    var database: String?

    @Option(help: "With PostgreSQL: the most connections the in-process server opens.")
    var databasePoolSize: Int = DatabaseLocation.defaultPoolSize

    @Option(help: "Drive a running server at this URL over HTTP instead of starting one.")
    var server: String?

    @Option(
        help: """
            With --server on this machine: the server's process id. The report then gives its CPU time per login \
            (from /proc, over the timed window) and its resident memory.
            """)
    var serverPid: Int32?

    @OptionGroup var output: OutputOptions

    static let clientId = "com.example.demo"

    func validate() throws {
        guard devices >= 1 else { throw ValidationError("--devices must be at least 1") }
        guard (1...4096).contains(concurrency) else { throw ValidationError("--concurrency takes 1 to 4096") }
        guard duration > 0, duration <= 86_400 else { throw ValidationError("--duration takes 0 to 86400 seconds") }
        guard server == nil || database == nil else {
            throw ValidationError("--database is for the in-process server; a --server keeps its own database")
        }
        guard serverPid == nil || server != nil else {
            throw ValidationError("--server-pid names the process of a --server; the in-process server is this process")
        }
    }

    func run() async throws {
        let report: BenchReport
        if let server {
            report = try await runAgainst(server: server)
        } else {
            report = try await runInProcess()
        }
        print(output.json ? try report.json() : report.text)
    }

    /// Enrols over HTTP and drives a server elsewhere.
    private func runAgainst(server: String) async throws -> BenchReport {
        let http = try BenchHTTP(baseURL: server)
        var view = ServerView.remote
        if let serverPid {
            guard let process = ProcessUsage(pid: serverPid) else {
                throw ValidationError("--server-pid \(serverPid): no such process in /proc")
            }
            view = .process(process)
        }
        do {
            let devices = try await enrolOverHTTP(http)
            let report = try await measure(http: http, devices: devices.devices, audience: devices.audience, server: view)
            try await http.shutdown()
            return report
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func enrolOverHTTP(_ http: BenchHTTP) async throws -> (devices: [BenchDevice], audience: String) {
        let enrollment = HTTPEnrollment(http: http, clientId: Self.clientId, password: "bench-" + UUID().uuidString.lowercased())
        let runId = Self.runId()
        status("creating \(devices) accounts and enrolling their devices over HTTP (bcrypt-bound, not timed)")
        let first = BenchCredentials(runId: runId, index: 0)
        try await enrollment.createAccount(first)
        let audience = try await enrollment.issuer(using: first)
        var enrolled: [BenchDevice] = [try await enrollment.enrol(first, audience: audience)]
        let total = devices
        let workers = min(4, concurrency, max(1, total - 1))
        try await withThrowingTaskGroup(of: [BenchDevice].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var mine: [BenchDevice] = []
                    for index in stride(from: 1 + worker, to: total, by: workers) {
                        let credentials = BenchCredentials(runId: runId, index: index)
                        try await enrollment.createAccount(credentials)
                        mine.append(try await enrollment.enrol(credentials, audience: audience))
                    }
                    return mine
                }
            }
            for try await batch in group { enrolled += batch }
        }
        return (enrolled, audience)
    }

    /// Starts the server in this process, writes the devices into its database, and drives it over loopback.
    private func runInProcess() async throws -> BenchReport {
        var logger = Logger(label: "touchstone.bench") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel =
            ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "touchstone-bench-\(UUID().uuidString.lowercased())", isDirectory: true)
        let location: DatabaseLocation
        if let database {
            location = try DatabaseLocation(database, poolSize: databasePoolSize)
        } else {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            location = .sqlite(path: scratch.appendingPathComponent("bench.sqlite").path)
        }
        defer { try? FileManager.default.removeItem(at: scratch) }

        // Devices sign for this ISSUER; the server listens on 127.0.0.1 whatever its port.
        var settings = try ServerSettings(issuer: "http://localhost")
        // Every login asks for a challenge from the one address of the load generator.
        settings.rateLimit = 0
        let runtime = try await TouchstoneRuntime.open(database: location, settings: settings, logger: logger)
        return try await serveAndMeasure(runtime, audience: settings.issuer, logger: logger)
    }

    private func serveAndMeasure(_ runtime: TouchstoneRuntime, audience: String, logger: Logger) async throws
        -> BenchReport
    {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let application = runtime.application(host: "127.0.0.1", port: 0) { port in
            portContinuation.yield(port)
            portContinuation.finish()
        }
        let group = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: BenchReport?.self) { tasks in
            tasks.addTask {
                // Ends the wait for the port below should the server stop (or fail) before it is running.
                defer { portContinuation.finish() }
                try await group.run()
                return nil
            }
            var port: Int?
            for await bound in ports {
                port = bound
                break
            }
            guard let port else { throw BenchError("the in-process server did not start") }
            let http = try BenchHTTP(baseURL: "http://127.0.0.1:\(port)")
            let report: BenchReport
            do {
                let enrolled = try await enrolDirectly(runtime)
                report = try await measure(http: http, devices: enrolled, audience: audience, server: .inThisProcess)
                try await http.shutdown()
            } catch {
                try? await http.shutdown()
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            while let next = try await tasks.next() {
                if next == nil { break }
            }
            return report
        }
    }

    /// The fast path: keys generated here, on every core, rows written by the server (see
    /// `insecureEnrollForBenchmark`), a transaction at a time. Every `step`-th device logs in, so that the logins
    /// spread over the whole table while at most ``loggingInDevices`` keys stay in memory.
    private func enrolDirectly(_ runtime: TouchstoneRuntime) async throws -> [BenchDevice] {
        status("writing \(devices) users and enrolled devices into the database (fast path, not timed)")
        let runId = Self.runId()
        let chunk = TouchstoneRuntime.devicesPerTransaction
        let step = max(1, (devices + Self.loggingInDevices - 1) / Self.loggingInDevices)
        var enrolled: [BenchDevice] = []
        enrolled.reserveCapacity(devices / step)
        for start in stride(from: 0, to: devices, by: chunk) {
            let indices = start..<min(devices, start + chunk)
            let credentials = await BenchCredentials.generate(indices, runId: runId)
            let ids = try await runtime.insecureEnrollForBenchmark(
                credentials.map {
                    BenchmarkEnrollment(
                        username: $0.username, device: $0.device, deviceKey: $0.deviceJWK, biometricKey: $0.biometricJWK)
                }, clientId: Self.clientId, pin: BenchCredentials.pin)
            for (index, (credential, id)) in zip(indices, zip(credentials, ids)) where index.isMultiple(of: step) {
                enrolled.append(credential.enrolled(as: id))
            }
            if devices > chunk { status("  \(indices.upperBound) of \(devices)") }
        }
        return enrolled
    }

    /// The most devices an in-process run logs in with, each again once all have (a million keys took 1.6 GB).
    static let loggingInDevices = 50_000

    /// What the bench can see of the server it drives.
    private enum ServerView {
        /// This process: its memory counts, its CPU does not (the load generator's would be in it).
        case inThisProcess
        /// A process of its own on this machine (`--server-pid`): CPU and memory.
        case process(ProcessUsage)
        /// Elsewhere: neither.
        case remote
    }

    /// Measures the verify rate on an idle machine, then runs the logins.
    private func measure(
        http: BenchHTTP, devices enrolled: [BenchDevice], audience: String, server: ServerView
    ) async throws -> BenchReport {
        status("measuring the single-core P-256 verify rate")
        let verifyPerSecond = try VerifyRate.measure()
        status(String(format: "verify/s %.0f; running %ld concurrent logins for %g s", verifyPerSecond, concurrency, duration))
        let load = LoginLoad(
            http: http, devices: enrolled, audience: audience, clientId: Self.clientId, concurrency: concurrency,
            duration: .milliseconds(Int64(duration * 1000)))
        let terminal = isatty(STDERR_FILENO) == 1
        let process: ProcessUsage? = if case .process(let usage) = server { usage } else { nil }
        let cpuBefore = process?.cpuTime()
        let result = try await load.run { elapsed, logins, errors in
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let line = String(
                format: "  %5.1f s  %8ld logins  %8.1f/s  %ld errors", seconds, logins, Double(logins) / max(seconds, 0.001),
                errors)
            FileHandle.standardError.write(Data((terminal ? "\r" + line : line + "\n").utf8))
        }
        let cpuAfter = process?.cpuTime()
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
        let rss: Int? =
            switch server {
            case .inThisProcess: ProcessUsage.current.residentBytes()
            case .process(let usage): usage.residentBytes()
            case .remote: nil
            }
        var serverCpu: Duration?
        if let cpuBefore, let cpuAfter { serverCpu = cpuAfter - cpuBefore }
        return BenchReport(
            load: result, verifyPerSecond: verifyPerSecond, devices: enrolled.count, concurrency: concurrency,
            durationSeconds: duration, serverRssBytes: rss, serverCpu: serverCpu)
    }

    private func status(_ line: String) {
        FileHandle.standardError.write(Data(("bench: " + line + "\n").utf8))
    }

    /// Distinguishes this run's usernames from earlier runs' on the same server.
    private static func runId() -> String {
        String(UUID().uuidString.lowercased().prefix(8))
    }
}
