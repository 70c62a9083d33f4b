import ArgumentParser
import TouchstoneClient

/// A `device` subcommand: its options are its own, over those given to `device`.
protocol DeviceSubcommand: AsyncParsableCommand {
    var own: DeviceOptionValues { get }
    var device: Device { get }
}

extension DeviceSubcommand {
    var options: DeviceOptions { DeviceOptions(own, over: device.options) }

    /// Runs the subcommand's work, turning SDK errors into one line on standard error (``ProblemText``) and a
    /// non-zero exit.
    func explainingErrors(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as TouchstoneError {
            Terminal.printError(ProblemText.sentence(for: error, server: options.server))
            throw ExitCode.failure
        } catch let error as ExitCode {
            throw error
        } catch {
            Terminal.printError("\(error)".replacingOccurrences(of: "\n", with: " "))
            throw ExitCode.failure
        }
    }
}
