import ArgumentParser
import TouchstoneClient

extension Device {
    struct Register: DeviceSubcommand {
        static let configuration = CommandConfiguration(abstract: "Register this device with a username and password.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Option(help: "The account's username.") var username: String
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
        @Option(help: "The app PIN to set (asked without echo when absent).") var pin: String?
        @Flag(help: "Report this device as compromised (to test the integrity gate).") var compromised = false
        @Option(
            help: """
                One of your recovery codes, when no other device of yours can approve this one (it is then spent).
                """)
        var recoveryCode: String?
        @OptionGroup var testAttestation: InsecureTestAttestationOptions

        func run() async throws {
            try await explainingErrors {
                let client = try options.client(
                    verifier: verification.verifier, compromised: compromised, attestor: try testAttestation.attestor())
                // The integrity gate comes before any question or request.
                try await client.checkIntegrity()
                let password =
                    passwordStdin ? readLine(strippingNewline: true) : Terminal.readSecret(prompt: "Password: ")
                guard let password, !password.isEmpty else {
                    throw TouchstoneError(.userCancelled, "no password")
                }
                guard let pin = pin ?? Terminal.askPIN() else { throw TouchstoneError(.userCancelled, "no PIN") }
                let session = try await client.register(
                    username: username, password: password, pin: pin, recoveryCode: recoveryCode
                ) { pending in
                    Terminal.printLine(
                        "approve this device on your other device: pick \(pending.number) there (waiting until \(pending.expiresAt.formatted(date: .omitted, time: .shortened)); Ctrl-C stops)"
                    )
                }
                let status = try await client.status()
                if options.json {
                    try session.report(json: true)
                } else {
                    print("registered device \(status.deviceId ?? "") for \(username)\(status.biometric ? " with fingerprint and PIN" : " with PIN only")")
                }
            }
        }
    }
}
