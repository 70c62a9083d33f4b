import ArgumentParser
import TouchstoneProtocol

extension Device {
    struct RecoveryCodes: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-codes",
            abstract: """
                Create the account's ten recovery codes (replacing earlier ones); needs a step-up first. Keep them \
                somewhere safe: each lets a new device join without this one.
                """)
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await explainingErrors {
                let codes = try await options.client().createRecoveryCodes()
                if options.json {
                    try printJSON(TouchstoneProtocol.RecoveryCodes(codes: codes))
                    return
                }
                Terminal.printLine(
                    "your recovery codes (shown only now; each works once, and they replace any earlier ones):")
                for code in codes { print(code) }
            }
        }
    }
}
