import Foundation
import TouchstoneProtocol
import Synchronization

/// Runs concurrent loops of biometric login (`POST /v1/challenges`, sign, `POST /v1/sessions`) for a duration.
public struct LoginLoad: Sendable {
    let http: BenchHTTP
    let devices: [BenchDevice]
    /// The server's ISSUER, the `aud` of every assertion.
    let audience: String
    let clientId: String
    let concurrency: Int
    let duration: Duration
    private let challengePath = Endpoint.challenge.path()
    private let loginPath = Endpoint.login.path()

    public init(
        http: BenchHTTP, devices: [BenchDevice], audience: String, clientId: String, concurrency: Int,
        duration: Duration
    ) {
        self.http = http
        self.devices = devices
        self.audience = audience
        self.clientId = clientId
        self.concurrency = concurrency
        self.duration = duration
    }

    /// Runs the loops; `progress` is called about once a second with the logins and errors so far.
    public func run(progress: @escaping @Sendable (_ elapsed: Duration, _ logins: Int, _ errors: Int) -> Void)
        async throws -> LoadResult
    {
        precondition(!devices.isEmpty && concurrency > 0)
        let counters = LoadCounters()
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        let loops = try await withThrowingTaskGroup(of: LoopResult.self) { group in
            for _ in 0..<concurrency {
                group.addTask { await loop(until: deadline, counters: counters, clock: clock) }
            }
            let reporter = Task {
                while clock.now < deadline {
                    try await Task.sleep(for: .seconds(1))
                    progress(clock.now - start, counters.logins.load(ordering: .relaxed), counters.errors.load(ordering: .relaxed))
                }
            }
            var results: [LoopResult] = []
            for try await result in group { results.append(result) }
            reporter.cancel()
            return results
        }
        let elapsed = clock.now - start
        var errors: [String: Int] = [:]
        for loop in loops {
            errors.merge(loop.errors, uniquingKeysWith: +)
        }
        return LoadResult(
            elapsed: elapsed, latenciesMs: loops.flatMap(\.latenciesMs), errors: errors)
    }

    private func loop(until deadline: ContinuousClock.Instant, counters: LoadCounters, clock: ContinuousClock) async
        -> LoopResult
    {
        var result = LoopResult()
        while clock.now < deadline {
            let index = counters.nextDevice.add(1, ordering: .relaxed).oldValue
            let device = devices[index % devices.count]
            let started = clock.now
            if let code = await login(device) {
                result.errors[code, default: 0] += 1
                counters.errors.add(1, ordering: .relaxed)
            } else {
                let latency = clock.now - started
                result.latenciesMs.append(Double(latency.components.seconds) * 1000 + Double(latency.components.attoseconds) / 1e15)
                counters.logins.add(1, ordering: .relaxed)
            }
        }
        return result
    }

    /// One biometric login; `nil` on success, otherwise the error code.
    private func login(_ device: BenchDevice) async -> String? {
        do {
            let challenge = try await http.post(
                challengePath, json: #"{"deviceId":\#(JSONText.string(device.deviceId)),"purpose":"login"}"#)
            guard challenge.status == 201 else { return challenge.errorCode }
            let issued = try challenge.decode(IssuedChallenge.self)
            let assertion = try device.assertion(challenge: issued.challenge, audience: audience, now: Date())
            let session = try await http.post(
                loginPath,
                json: #"{"assertion":\#(JSONText.string(assertion)),"clientId":\#(JSONText.string(clientId))}"#)
            guard session.status == 201 else { return session.errorCode }
            return nil
        } catch is DecodingError {
            return "unreadable_answer"
        } catch {
            return "transport"
        }
    }

    private struct IssuedChallenge: Decodable {
        var challenge: String
    }

    private struct LoopResult: Sendable {
        var latenciesMs: [Double] = []
        var errors: [String: Int] = [:]
    }
}

/// What a load run measured.
public struct LoadResult: Sendable {
    /// From the start of the loops until the last in-flight login ended.
    public var elapsed: Duration
    /// One entry per successful login: challenge request to session answer, signing included.
    public var latenciesMs: [Double]
    /// Failed logins by problem code (`transport` for connection failures).
    public var errors: [String: Int]

    public var logins: Int { latenciesMs.count }

    public var loginsPerSecond: Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(logins) / seconds : 0
    }
}

/// Counters the loops share with the progress line.
private final class LoadCounters: Sendable {
    let logins = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
    let nextDevice = Atomic<Int>(0)
}
