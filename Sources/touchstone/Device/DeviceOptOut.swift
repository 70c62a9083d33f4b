import ArgumentParser

extension Device {
    struct OptOut: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "opt-out", abstract: "Turn biometrics off for this device; it logs in with the PIN from now on.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await explainingErrors {
                try await options.client().optOut()
                print("biometrics are off on this device; log in with the PIN")
            }
        }
    }
}
