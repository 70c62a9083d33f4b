import ArgumentParser

extension Device {
    /// `touchstone device push …`: where this device's pushes go.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register, show or remove where the server pushes this device's inbox items (APNs or FCM).",
            subcommands: [Register.self, Show.self, Remove.self])
    }
}
