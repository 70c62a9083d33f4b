import ArgumentParser
import TouchstoneProtocol

extension Device {
    struct Inbox: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Show requests waiting for this device (confirmations, web logins, new devices) and security notices \
                about the account; with an id, that one item.
                """)
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Option(help: "Wait up to this many seconds (at most 30) for an item to arrive.") var wait = 0
        @Argument(help: "Show only this item (a push names it); it fails when the item no longer waits.") var id: String?

        func validate() throws {
            if id != nil, wait != 0 { throw ValidationError("--wait is for the whole inbox, not one item") }
        }

        func run() async throws {
            try await explainingErrors {
                if let id {
                    let entry = try await options.client().inboxItem(id: id)
                    if options.json { try printJSON(entry) } else { print(entry.summary) }
                    return
                }
                let entries = try await options.client().inbox(waitSeconds: wait)
                if options.json {
                    try printJSON(TouchstoneProtocol.Inbox(entries: entries))
                    return
                }
                if entries.isEmpty { print("nothing is waiting") }
                for entry in entries { print(entry.summary) }
            }
        }
    }
}
