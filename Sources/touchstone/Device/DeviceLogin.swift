import ArgumentParser
import TouchstoneClient
import TouchstoneProtocol

extension Device {
    struct Login: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Log in with a fingerprint (falling back to the PIN), or with --pin.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Option(help: "Log in with this PIN instead of a fingerprint.") var pin: String?

        func run() async throws {
            try await explainingErrors {
                let client = try options.client(verifier: verification.verifier)
                let session = try await Self.logIn(client, pin: pin, prompt: "Log in to \(options.clientId)", options)
                try session.report(json: options.json)
            }
        }

        /// Logs in with `pin`, or without it with a fingerprint (the PIN asked when that cannot be used).
        /// - Parameter prompt: shown with the fingerprint request.
        static func logIn(
            _ client: TouchstoneClient, pin: String?, prompt: String, _ options: DeviceOptions
        ) async throws -> Session {
            if let pin {
                try await client.login(pin: pin)
            } else {
                try await client.login(prompt: prompt, fallback: options.pinPrompt)
            }
        }
    }
}
