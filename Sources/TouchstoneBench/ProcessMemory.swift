import Foundation

/// This process's memory, from `/proc/self/status` (Linux).
public enum ProcessMemory {
    /// The resident set size (`VmRSS`) in bytes, or `nil` where `/proc` has none.
    public static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, let value = Int(fields[1]), fields[2] == "kB" else { return nil }
            return value * 1024
        }
        return nil
    }
}
