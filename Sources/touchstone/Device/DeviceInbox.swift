import ArgumentParser
import TouchstoneProtocol

extension Device {
    struct Inbox: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Show requests waiting for this device (confirmations, web logins, new devices) and security notices \
                about the account.
                """)
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Option(help: "Wait up to this many seconds (at most 30) for an item to arrive.") var wait = 0

        func run() async throws {
            try await explainingErrors {
                let entries = try await options.client().inbox(waitSeconds: wait)
                if options.json {
                    try printJSON(TouchstoneProtocol.Inbox(entries: entries))
                    return
                }
                if entries.isEmpty { print("nothing is waiting") }
                for entry in entries {
                    switch entry {
                    case .request(let item): print(item.summary)
                    case .notice(let notice): print(notice.summary)
                    }
                }
            }
        }
    }
}
