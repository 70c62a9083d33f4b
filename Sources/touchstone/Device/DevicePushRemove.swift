import ArgumentParser

extension Device.Push {
    struct Remove: DeviceSubcommand {
        static let configuration = CommandConfiguration(abstract: "Stop pushes to this device (its inbox stays).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await explainingErrors {
                try await options.client().removePushRegistration()
                print("push registration removed")
            }
        }
    }
}
