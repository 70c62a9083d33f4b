import Foundation
import Synchronization

/// Starts processes one at a time in this test process.
///
/// Foundation's `Process.run()` on Linux crashed twice in CI (a bad read in its memcpy) while several tests launched
/// processes at once; launching is quick, so serializing only the launch costs nothing, and the processes still run
/// side by side.
public enum ProcessLaunch {
    private static let lock = Mutex(())

    public static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }
}
