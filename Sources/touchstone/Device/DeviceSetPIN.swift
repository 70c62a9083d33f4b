import ArgumentParser
import TouchstoneClient

extension Device {
    struct SetPIN: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "set-pin", abstract: "Set a new app PIN (unlocks a locked PIN); needs a step-up first.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Option(help: "The new PIN (asked without echo when absent).") var pin: String?

        func run() async throws {
            try await explainingErrors {
                guard let pin = pin ?? Terminal.askPIN() else { throw TouchstoneError(.userCancelled, "no PIN") }
                try await options.client().changePIN(pin)
                print("the PIN is changed")
            }
        }
    }
}
