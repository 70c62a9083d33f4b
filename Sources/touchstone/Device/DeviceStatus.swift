import ArgumentParser

extension Device {
    struct Status: DeviceSubcommand {
        static let configuration = CommandConfiguration(abstract: "Show what this profile holds for the app.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await explainingErrors {
                let status = try await options.client().status()
                if options.json {
                    try printJSON(status)
                } else if status.registered {
                    print("registered: device \(status.deviceId ?? "") of \(status.username ?? ""), biometric \(status.biometric ? "on" : "off")")
                } else {
                    print("not registered with \(options.server)")
                }
            }
        }
    }
}
