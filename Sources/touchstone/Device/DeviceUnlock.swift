import ArgumentParser
import TouchstoneClient
import TouchstoneProtocol

extension Device {
    struct Unlock: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Refresh the session silently, or after inactivity unlock with a fingerprint or the PIN.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Option(help: "Unlock with this PIN when a fingerprint is needed.") var pin: String?

        func run() async throws {
            try await explainingErrors {
                let client = try options.client(verifier: verification.verifier)
                let session: Session
                do {
                    session = try await client.refresh()
                } catch let error as TouchstoneError where error.code == .reauthenticationRequired {
                    session = try await Login.logIn(client, pin: pin, prompt: "Unlock \(options.clientId)", options)
                }
                try session.report(json: options.json)
            }
        }
    }
}
