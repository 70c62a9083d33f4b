import ArgumentParser
import Foundation
import TouchstoneProtocol

extension Device.Push {
    struct Show: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Show where this device's pushes go (never the token); with --json, {} when nowhere.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await explainingErrors {
                let registration = try await options.client().pushRegistration()
                if options.json {
                    if let registration { try printJSON(registration) } else { print("{}") }
                    return
                }
                guard let registration else {
                    print("no push registration: the device learns of items by polling its inbox")
                    return
                }
                let apns = registration.topic.map { " \($0) (\(registration.environment?.rawValue ?? "?"))" } ?? ""
                print("\(registration.provider.rawValue)\(apns), since \(registration.registeredAt.formatted(.iso8601))")
            }
        }
    }
}
