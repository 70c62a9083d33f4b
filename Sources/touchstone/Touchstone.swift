import ArgumentParser
import NIOCore
import NIOPosix

@main
struct Touchstone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchstone",
        abstract: "Device-bound biometric login: the token server and its tools.",
        subcommands: [Serve.self, Admin.self, Device.self, Bench.self])

    /// Runs Swift concurrency's tasks on SwiftNIO's event loops (the threads that read and write the sockets), so that
    /// a request's handler runs where its connection lives instead of hopping to another pool and back. NIO requires
    /// this on the main thread, before any task is enqueued: hence here, first. Blocking work (bcrypt, SQLite's
    /// writes) already runs on thread pools of its own.
    static func main() async {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        await main(nil)
    }
}
