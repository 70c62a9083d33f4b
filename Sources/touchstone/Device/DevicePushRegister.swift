import ArgumentParser
import Foundation
import TouchstoneClient
import TouchstoneProtocol

extension APNsEnvironment: ExpressibleByArgument {}

extension Device.Push {
    struct Register: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an APNs device token or an FCM registration token for this device's pushes.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Option(help: "The APNs device token, as hex digits.") var apns: String?
        @Option(help: "The app's bundle id the APNs push is addressed to (with --apns).") var topic: String?
        @Option(help: "The APNs host the token belongs to (with --apns).")
        var environment = APNsEnvironment.production
        @Option(help: "The FCM registration token.") var fcm: String?

        func validate() throws {
            if apns != nil, fcm != nil { throw ValidationError("give either --apns or --fcm, not both") }
            if fcm != nil, topic != nil { throw ValidationError("--topic is for --apns") }
            _ = try destination()
        }

        func run() async throws {
            try await explainingErrors {
                try await options.client().registerPush(try destination())
                print("pushes go to \(apns == nil ? "FCM" : "APNs (\(environment.rawValue))")")
            }
        }

        /// What the options name.
        private func destination() throws -> PushDestination {
            if let fcm { return .fcm(token: fcm) }
            guard let apns, let topic else {
                throw ValidationError("give --apns TOKEN --topic BUNDLE, or --fcm TOKEN")
            }
            guard let token = Self.bytes(hex: apns) else {
                throw ValidationError("--apns takes the device token as hex digits")
            }
            return .apns(deviceToken: token, topic: topic, environment: environment)
        }

        /// The bytes `hex` spells, two ASCII hex digits each; `nil` for anything else (signs included).
        private static func bytes(hex: String) -> Data? {
            var nibbles: [UInt8] = []
            for character in hex {
                guard character.isASCII, let value = character.hexDigitValue else { return nil }
                nibbles.append(UInt8(value))
            }
            guard nibbles.count.isMultiple(of: 2) else { return nil }
            return Data(stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] })
        }
    }
}
