import Foundation
import TouchstoneTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PostgreSQL cluster of one test, which the test may stop and start again: Debian's PostgreSQL (the one
/// `scripts/postgres` uses), on 127.0.0.1 and a free port, in a scratch directory; as root it runs as `postgres`.
///
/// Commands are started with `posix_spawn` and waited for with `waitpid`: Foundation's `Process` on Linux once failed
/// to reap a shell that started PostgreSQL (a zombie, and `waitUntilExit` spinning).
final class PostgresCluster: @unchecked Sendable {  // immutable once made
    let directory: ScratchDirectory
    let port: Int
    private let bin: String

    /// The `--database` URL of the cluster's `postgres` database.
    var url: String { "postgres://touchstone@127.0.0.1:\(port)/postgres?sslmode=disable" }

    /// Creates the cluster and starts it.
    static func started() async throws -> PostgresCluster {
        let cluster = try await Self.offThePool { try PostgresCluster() }
        try await cluster.start()
        return cluster
    }

    private init() throws {
        let versions = try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")
            .compactMap { Int($0) }.sorted()
        guard let version = versions.last else { throw Failure("no PostgreSQL in /usr/lib/postgresql") }
        bin = "/usr/lib/postgresql/\(version)/bin"
        directory = try ScratchDirectory()
        port = try FreePort.claim()
        if geteuid() == 0 {
            try shell("chown postgres \(directory.url.path)")
        }
        // --no-sync: initdb does not wait for its files to reach the disk (1-1.5 s of the test on a busy machine); the
        // cluster runs without fsync anyway and lives for one test.
        try asPostgres("\(bin)/initdb -D \(directory.path("data")) -U touchstone --auth=trust -E UTF8 --no-sync")
    }

    /// Starts the server and waits until it accepts connections.
    func start() async throws {
        let options = "-h 127.0.0.1 -p \(port) -k \(directory.url.path) -c fsync=off -c synchronous_commit=off"
        let command = "\(bin)/pg_ctl -D \(directory.path("data")) -l \(directory.path("server.log")) -w -o '\(options)' start"
        try await Self.offThePool { try self.asPostgres(command) }
    }

    /// Stops the server: `fast` disconnects every client at once, as a crash or a failover would for them.
    func stop() async throws {
        let command = "\(bin)/pg_ctl -D \(directory.path("data")) -m fast -w stop"
        try await Self.offThePool { try self.asPostgres(command) }
    }

    /// Runs blocking work (a command and its `waitpid`) on a thread of its own, not on Swift's few cooperative ones.
    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    deinit {
        try? asPostgres("\(bin)/pg_ctl -D \(directory.path("data")) -m immediate stop")
    }

    private func asPostgres(_ command: String) throws {
        try shell(geteuid() == 0 ? "runuser -u postgres -- \(command)" : command)
    }

    /// Runs `command` with `/bin/sh -c`, its output appended to `commands.log`; throws unless it exits 0.
    private func shell(_ command: String) throws {
        let line = "\(command) >>\(directory.path("commands.log")) 2>&1 </dev/null"
        let arguments = ["/bin/sh", "-c", line]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ)
        guard spawned == 0 else { throw Failure("posix_spawn failed (\(spawned)): \(command)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure("waitpid failed (\(errno)): \(command)") }
        }
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let log = (try? String(contentsOfFile: directory.path("commands.log"), encoding: .utf8)) ?? ""
            throw Failure("`\(command)` ended with status \(status):\n\(log.suffix(2000))")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
