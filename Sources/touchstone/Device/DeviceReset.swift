import ArgumentParser

extension Device {
    struct Reset: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete this device's keys and sessions here only (the server is not told).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await explainingErrors {
                try await options.client().reset()
                print("local keys and sessions deleted")
            }
        }
    }
}
