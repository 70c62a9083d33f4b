import ArgumentParser

@main
struct Touchstone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchstone",
        abstract: "Device-bound biometric login: the token server and its tools.",
        subcommands: [Serve.self, Admin.self, Device.self, Bench.self])
}
