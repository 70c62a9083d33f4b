import ArgumentParser

extension Device {
    struct Deregister: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke this device on the server, then delete its keys here.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await explainingErrors {
                try await options.client().deregister()
                print("device deregistered; its keys are deleted")
            }
        }
    }
}
