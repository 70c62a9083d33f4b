import ArgumentParser

extension Device {
    struct Dismiss: DeviceSubcommand {
        static let configuration = CommandConfiguration(abstract: "Dismiss a security notice from the inbox.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Argument(help: "The notice's id, from `device inbox`.") var id: String

        func run() async throws {
            try await explainingErrors {
                try await options.client().dismissNotice(id: id)
                print("notice \(id) dismissed")
            }
        }
    }
}
