import ArgumentParser

extension Device {
    struct Approve: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Approve a request from the inbox with a fingerprint (or the PIN).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Argument(help: "The request's id, from `device inbox`.") var id: String
        @Option(help: "Approve with this PIN instead of a fingerprint.") var pin: String?
        @Option(help: "For a web login or a new device: the number the browser or the new device shows.") var number: Int?
        @Option(help: "The prompt shown with the fingerprint request.") var prompt: String?

        func run() async throws {
            try await explainingErrors {
                try await InboxDecision(id: id, approve: true, pin: pin, prompt: prompt, number: number)
                    .make(options, verification)
            }
        }
    }
}
