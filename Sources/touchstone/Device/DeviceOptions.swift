import ArgumentParser
import Foundation
import TouchstoneClient

/// Options every `device` subcommand takes: its own, over those given to `device`.
struct DeviceOptions {
    var profile: String
    var server: String
    var clientId: String
    var deviceName: String?
    var json: Bool

    init(_ own: DeviceOptionValues, over parent: DeviceOptionValues) {
        profile = own.profile ?? parent.profile ?? "./touchstone-device"
        server = own.server ?? parent.server ?? "http://localhost:8080"
        clientId = own.clientId ?? parent.clientId ?? "com.example.demo"
        deviceName = own.deviceName ?? parent.deviceName
        json = own.json || parent.json
    }

    /// The SDK's client for this profile's device.
    /// - Parameter attestor: attests the keys of a registration; `nil` for none (the software platform has none).
    func client(
        verifier: VerifierChoice? = nil, compromised: Bool = false, attestor: (any KeyAttestor)? = nil
    ) throws -> TouchstoneClient {
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("--server takes an http or https URL")
        }
        var platform = Platform.software(
            directory: URL(fileURLWithPath: profile), verifier: verifier?.verifier(), deviceName: deviceName,
            compromised: compromised)
        platform.attestor = attestor
        return TouchstoneClient(server: url, clientID: clientId, platform: platform)
    }

    /// Asks for the PIN when a fingerprint cannot be used, saying why (``ProblemText``).
    var pinPrompt: PINPrompt {
        { [server] reason in Terminal.askPIN(ProblemText.sentence(for: reason, server: server)) }
    }
}
