import Foundation
import Synchronization
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an answer promises survives the process: `kill -9` in the middle of enrolments and logins, then the same
/// SQLite file served again.
@Suite struct DurabilityTests {
    /// What the clients were answered before the kill.
    struct Acknowledged: Sendable {
        var devices: [EnrolledDevice] = []
        var sessions: [(device: EnrolledDevice, session: Session)] = []
        /// Assertions the server answered, whatever the answer: none may log in again.
        var assertions: [(device: EnrolledDevice, assertion: String)] = []
    }

    @Test func everythingAnsweredBeforeAKill9IsStillThereAfterARestart() async throws {
        let server = try await ServerProcess.start(["--rate-limit", "0"])
        let client = WireClient(baseURL: server.baseURL)
        // A few devices first, so that the load has logins from the start.
        var first: [EnrolledDevice] = []
        for index in 0..<3 {
            first.append(try await EnrolledDevice.enrol(on: server, client: client, username: "first-\(index)"))
        }
        let load = Load(Acknowledged(devices: first))
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Logins (and a refresh of each new session) on every enrolled device, as fast as they are answered.
            for worker in 0..<6 {
                group.addTask {
                    var round = worker
                    while !load.isStopped {
                        let devices = load.acknowledged.withLock { $0.devices }
                        let device = devices[round % devices.count]
                        round += 1
                        guard let assertion = try? await device.assertion(),
                            let answer = try? await device.login(assertion: assertion)
                        else { continue }
                        load.acknowledged.withLock { $0.assertions.append((device, assertion)) }
                        guard answer.status == 201, let session = try? answer.decode(Session.self) else { continue }
                        load.acknowledged.withLock { $0.sessions.append((device, session)) }
                    }
                }
            }
            // New accounts and devices meanwhile.
            let issuer = server.issuer
            group.addTask {
                var index = 0
                while !load.isStopped {
                    index += 1
                    if let device = try? await EnrolledDevice.enrol(issuer: issuer, client: client, username: "load-\(index)") {
                        load.acknowledged.withLock { $0.devices.append(device) }
                    }
                }
            }
            // The kill, once the load has acknowledged two new devices and ten sessions (a loaded machine takes longer:
            // each enrolment is three bcrypts), with more of both in flight.
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                let (devices, sessions) = load.acknowledged.withLock { ($0.devices.count, $0.sessions.count) }
                if devices >= first.count + 2, sessions >= 10 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            server.send(signal: SIGKILL)
            _ = await server.exitStatus(within: 10)
            load.stop()
            try await group.waitForAll()
        }

        let before = load.acknowledged.withLock { $0 }
        #expect(before.devices.count >= first.count + 2 && before.sessions.count >= 10, "\(before.devices.count) devices, \(before.sessions.count) sessions")
        // The same issuer as before the kill (the devices' tokens name it), as a deployment keeps its public URL.
        try await withServer(["--database", server.database, "--rate-limit", "0", "--issuer", server.issuer]) { _, again in
            for device in before.devices {
                let moved = device.talking(to: again)
                let answer = try await moved.login(assertion: try await moved.assertion())
                #expect(answer.status == 201, "\(device.username): \(answer)")
            }
            for (device, session) in before.sessions {
                let answer = try await device.talking(to: again).refresh(session.refreshToken)
                #expect(answer.status == 200, "\(device.username): \(answer)")
            }
            for (device, assertion) in before.assertions {
                let answer = try await device.talking(to: again).login(assertion: assertion)
                #expect(answer.status == 401, "\(device.username) logged in again with an answered assertion: \(answer)")
            }
        }
    }
}

/// The load of the kill -9 test: what was acknowledged, and whether to go on.
final class Load: Sendable {
    let acknowledged: Mutex<DurabilityTests.Acknowledged>
    private let stopped = Atomic<Bool>(false)

    init(_ acknowledged: DurabilityTests.Acknowledged) {
        self.acknowledged = Mutex(acknowledged)
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }
    func stop() { stopped.store(true, ordering: .relaxed) }
}

