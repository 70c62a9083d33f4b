import Foundation

/// What `touchstone bench` prints; `--json` prints exactly these members.
public struct BenchReport: Encodable, Sendable {
    public var loginsPerSecond: Double
    public var latencyMs: LatencySummary
    /// Failed logins by problem code.
    public var errors: [String: Int]
    /// Single-core P-256 verifications per second on this machine, measured in the same run.
    public var verifyPerSecond: Double
    public var devices: Int
    public var concurrency: Int
    public var durationSeconds: Double
    /// The resident memory of the process serving at the end of the load: in-process mode (it includes the load
    /// generator) or `--server-pid`; `nil` for a server the bench cannot see.
    public var serverRssBytes: Int?
    /// The server's CPU time (all its threads, user and system) over the timed window divided by the logins, in
    /// microseconds: `--server-pid` only, where the server is a process of its own.
    public var serverCpuMicrosecondsPerLogin: Double?

    /// The server's CPU per login in single-core P-256 verifications of this run (`nil` without `--server-pid`): the
    /// floor is about 1.5 (one verification, one ES256 signature, hashing).
    public var serverCpuVerificationsPerLogin: Double? {
        serverCpuMicrosecondsPerLogin.map { $0 * verifyPerSecond / 1_000_000 }
    }

    /// - Parameter serverCpu: the server's CPU time over the timed window, when the bench can read it.
    public init(
        load: LoadResult, verifyPerSecond: Double, devices: Int, concurrency: Int, durationSeconds: Double,
        serverRssBytes: Int?, serverCpu: Duration?
    ) {
        loginsPerSecond = load.loginsPerSecond
        latencyMs = LatencySummary(load.latenciesMs)
        errors = load.errors
        self.verifyPerSecond = verifyPerSecond
        self.devices = devices
        self.concurrency = concurrency
        self.durationSeconds = durationSeconds
        self.serverRssBytes = serverRssBytes
        serverCpuMicrosecondsPerLogin = serverCpu.flatMap { cpu in
            load.logins > 0 ? cpu / .microseconds(1) / Double(load.logins) : nil
        }
    }

    private enum CodingKeys: String, CodingKey {
        case loginsPerSecond, latencyMs, errors, verifyPerSecond, devices, concurrency, durationSeconds, serverRssBytes
        case serverCpuMicrosecondsPerLogin, serverCpuVerificationsPerLogin
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.rounded(loginsPerSecond), forKey: .loginsPerSecond)
        try container.encode(latencyMs.rounded, forKey: .latencyMs)
        try container.encode(errors, forKey: .errors)
        try container.encode(Self.rounded(verifyPerSecond), forKey: .verifyPerSecond)
        try container.encode(devices, forKey: .devices)
        try container.encode(concurrency, forKey: .concurrency)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        // Always present: null where the bench cannot see the server's process.
        try container.encode(serverRssBytes, forKey: .serverRssBytes)
        try container.encode(serverCpuMicrosecondsPerLogin.map(Self.rounded), forKey: .serverCpuMicrosecondsPerLogin)
        try container.encode(serverCpuVerificationsPerLogin.map(Self.rounded), forKey: .serverCpuVerificationsPerLogin)
    }

    /// One JSON object on one line.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The report for people.
    public var text: String {
        let errorText =
            errors.isEmpty ? "none" : errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let share = verifyPerSecond > 0 ? loginsPerSecond / verifyPerSecond * 100 : 0
        return """
            logins/s      \(String(format: "%.1f", loginsPerSecond)) (\(String(format: "%.1f", share)) % of the verify rate)
            latency ms    p50 \(Self.ms(latencyMs.p50))  p90 \(Self.ms(latencyMs.p90))  p99 \(Self.ms(latencyMs.p99))  max \(Self.ms(latencyMs.max))
            errors        \(errorText)
            verify/s      \(String(format: "%.0f", verifyPerSecond)) (P-256, one core, swift-crypto)
            server RSS    \(serverRssBytes.map { String(format: "%.1f MB", Double($0) / 1_000_000) } ?? "n/a (--server without --server-pid)")
            server CPU    \(cpuText)
            devices \(devices), concurrency \(concurrency), duration \(durationSeconds) s
            """
    }

    private var cpuText: String {
        guard let micros = serverCpuMicrosecondsPerLogin, let verifications = serverCpuVerificationsPerLogin else {
            return "n/a (needs the server as a process of its own: --server with --server-pid)"
        }
        return String(
            format: "%.0f µs per login = %.1f P-256 verifications (%.1f µs each)", micros, verifications,
            1_000_000 / verifyPerSecond)
    }

    private static func ms(_ value: Double) -> String { String(format: "%.2f", value) }

    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}

extension LatencySummary {
    /// To the microsecond.
    var rounded: LatencySummary {
        func micro(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
        var copy = self
        copy.p50 = micro(p50)
        copy.p90 = micro(p90)
        copy.p99 = micro(p99)
        copy.max = micro(max)
        return copy
    }
}
