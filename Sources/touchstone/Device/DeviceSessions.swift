import ArgumentParser
import Foundation
import TouchstoneProtocol

extension Device {
    struct Sessions: DeviceSubcommand {
        static let configuration = CommandConfiguration(abstract: "List the account's live sessions.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await explainingErrors {
                let sessions = try await options.client().sessions()
                if options.json {
                    try printJSON(SessionList(sessions: sessions))
                    return
                }
                for session in sessions {
                    let via = session.deviceId.map { "device \($0)" } ?? "no device"
                    print(
                        "\(session.sessionId)  \(session.clientId)  \(session.amr.map(\.rawValue).joined(separator: ",")) \(session.acr)  \(via)  from \(session.ip ?? "?")  since \(session.createdAt.formatted(.iso8601))\(session.current ? "  (this one)" : "")"
                    )
                }
            }
        }
    }
}
