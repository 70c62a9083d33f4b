import ArgumentParser

/// The options of `touchstone device`, given before the subcommand or after it.
struct DeviceOptionValues: ParsableArguments {
    @Option(help: "The directory that holds this device's keys and state (default ./touchstone-device).")
    var profile: String?

    @Option(help: "The server's public base URL, its issuer (default http://localhost:8080).")
    var server: String?

    @Option(help: "The app's client id (default com.example.demo).")
    var clientId: String?

    @Option(help: "Report this device name instead of the host name.")
    var deviceName: String?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false
}
