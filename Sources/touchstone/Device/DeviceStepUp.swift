import ArgumentParser
import TouchstoneClient

extension Device {
    struct StepUp: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "step-up", abstract: "Confirm the password again for privileged actions (a short window).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

        func run() async throws {
            try await explainingErrors {
                let password =
                    passwordStdin ? readLine(strippingNewline: true) : Terminal.readSecret(prompt: "Password: ")
                guard let password, !password.isEmpty else { throw TouchstoneError(.userCancelled, "no password") }
                let token = try await options.client().stepUp(password: password)
                print("privileged for \(token.expiresIn) s: change the PIN or the password, or remove another device")
            }
        }
    }
}
