import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A local process's CPU time and memory, read from `/proc` (Linux): the bench's view of the server it measures.
public struct ProcessUsage: Sendable {
    /// `self`, or a process id.
    private let directory: String

    /// This process.
    public static let current = ProcessUsage(directory: "/proc/self")

    /// The process `pid`; `nil` when `/proc` does not show it (no such process, or not Linux).
    public init?(pid: Int32) {
        directory = "/proc/\(pid)"
        guard cpuTime() != nil else { return nil }
    }

    private init(directory: String) {
        self.directory = directory
    }

    /// The CPU time the process has used so far, user and system, in all its threads; `nil` once it is gone.
    public func cpuTime() -> Duration? {
        // `pid (comm) state ppid …`: the name may hold spaces and parentheses, so the fields are counted after its
        // last `)`; utime and stime are fields 14 and 15 of proc(5), in clock ticks.
        guard let stat = try? String(contentsOfFile: directory + "/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]), ticksPerSecond > 0
        else { return nil }
        return .microseconds((user + system) * 1_000_000 / Int64(ticksPerSecond))
    }

    /// The resident set size (`VmRSS`) in bytes, or `nil` where `/proc` has none.
    public func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: directory + "/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, let value = Int(fields[1]), fields[2] == "kB" else { return nil }
            return value * 1024
        }
        return nil
    }
}
