import ArgumentParser

extension Device {
    struct Deny: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Deny a request from the inbox (signed like an approval, so only you can deny).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Argument(help: "The request's id, from `device inbox`.") var id: String
        @Option(help: "Deny with this PIN instead of a fingerprint.") var pin: String?

        func run() async throws {
            try await explainingErrors {
                try await InboxDecision(id: id, approve: false, pin: pin, prompt: nil, number: nil)
                    .make(options, verification)
            }
        }
    }
}
