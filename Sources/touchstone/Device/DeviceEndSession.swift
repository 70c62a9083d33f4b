import ArgumentParser

extension Device {
    struct EndSession: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "end-session",
            abstract: "End one of the account's sessions (another one than this needs a step-up first).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Argument(help: "The session's id, from `device sessions`.") var id: String

        func run() async throws {
            try await explainingErrors {
                try await options.client().endSession(id: id)
                print("session \(id) ended")
            }
        }
    }
}
