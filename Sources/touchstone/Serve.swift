import ArgumentParser
import Foundation
import Hummingbird
import Logging
import TouchstoneDomain
import TouchstoneDelivery
import TouchstoneServer
import TouchstoneStorage

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the token server.")

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "The public base URL (default http://localhost:PORT, the port bound); https unless the host is localhost.")
    var issuer: String?

    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("rp-id"), help: "The WebAuthn relying-party ID (default: the issuer's host).")
    var rpID: String?

    @Option(help: "A web origin allowed to use passkeys and CORS (repeatable; default: the issuer's origin).")
    var origin: [String] = []

    @Option(help: """
        The account app (the web page's client id): the only app whose tokens without a device the v1 API accepts.
        """)
    var accountClientId = "com.example.demo"

    @Flag(help: "Refuse POST /v1/accounts; accounts are created by an administrator.")
    var noSelfSignup = false

    @Option(help: "A proxy address range whose X-Forwarded-For is trusted (repeatable).")
    var trustedProxy: [String] = []

    @Flag(name: .customLong("touchidauth-compat"), help: "Serve the legacy auth0/TouchIDAuth /pubkey and /login endpoints.")
    var touchIDAuthCompat = false

    @Flag(help: "With --touchidauth-compat, accept RSA keys of 1024 bits (weak; that library's default).")
    var insecureAllowRsa1024 = false

    @Option(help: "Requests per client address and minute to each anonymous endpoint that stores something (0: no limit).")
    var rateLimit = 300

    @Option(help: "Serve GET /metrics (Prometheus) on this port of --host, apart from the public port.")
    var metricsPort: Int?

    @Option(help: "Serve the admin API (/admin/v1, admin tokens) on this port of --host, apart from the public port.")
    var adminPort: Int?

    @Option(help: "Google's Android key attestation status list (JSON): chains with a revoked certificate are refused.")
    var androidAttestationStatus: String?

    @Option(help: ArgumentHelp(
        "A PEM certificate trusted as a root for hardware key attestations, both formats (repeatable).",
        discussion: "For tests and private CAs only: every such root can vouch for any key."))
    var insecureAttestationRoot: [String] = []

    @Option(help: ArgumentHelp(
        "A bcrypt cost from 4 to 11 for passwords and PINs, below the minimum of 12.",
        discussion: """
            For test suites only, which hash thousands of passwords: a stolen database would give its passwords up \
            thousands of times faster. The server warns at start.
            """))
    var insecureBcryptCost: UInt8?

    @Option(help: ArgumentHelp(
        "An https origin that receives every APNs push in place of Apple's two hosts.",
        discussion: "For tests only, with a stand-in for APNs (and --insecure-push-ca for its certificate)."))
    var insecureApnsURL: String?

    @Option(help: ArgumentHelp(
        "An https origin that receives every FCM message in place of https://fcm.googleapis.com.",
        discussion: "For tests only, with a stand-in for FCM (and --insecure-push-ca for its certificate)."))
    var insecureFcmURL: String?

    @Option(help: ArgumentHelp(
        "A PEM file of certificates trusted beside the system's roots for pushes and service accounts' token_uri.",
        discussion: "For tests only: whoever holds such a root can read every push and OAuth assertion."))
    var insecurePushCA: String?

    @Option(help: ArgumentHelp(
        "Export OpenTelemetry traces over OTLP/HTTP (protobuf) to this URL: POST URL/v1/traces.",
        discussion: "Without it no span is recorded or sent."))
    var otelEndpoint: String?

    func run() async throws {
        let logger = CLILog.makeLogger("touchstone.serve")
        if let metricsPort {
            guard (0...65535).contains(metricsPort) else { throw ValidationError("--metrics-port takes a port number") }
            guard metricsPort != port || port == 0 else {
                throw ValidationError("--metrics-port must differ from --port: metrics are never served on the public port")
            }
        }
        if let adminPort {
            // One line, as a bad setting is (a ValidationError would add the usage).
            guard (0...65535).contains(adminPort) else { throw ConfigurationError("--admin-port takes a port number") }
            guard adminPort == 0 || (adminPort != port && adminPort != metricsPort) else {
                throw ConfigurationError(
                    "--admin-port must differ from --port and --metrics-port: the admin API is served on a listener of its own")
            }
        }
        // `--port 0` takes a free port, which the default issuer (and so the RP ID and origin) names: it is picked now,
        // before anything is built from the issuer, and held until the server binds it.
        let reservation = port == 0 ? try await PortReservation(host: host) : nil
        let port = reservation?.port ?? port
        var settings = try ServerSettings(issuer: issuer ?? "http://localhost:\(port)")
        settings.selfSignup = !noSelfSignup
        settings.accountClientId = accountClientId
        settings.trustedProxies = try trustedProxy.map(CIDR.init)
        try settings.setRelyingParty(id: rpID, origins: origin)
        guard touchIDAuthCompat || !insecureAllowRsa1024 else {
            throw ValidationError("--insecure-allow-rsa1024 goes with --touchidauth-compat")
        }
        settings.touchIDAuthCompat = touchIDAuthCompat
        settings.insecureAllowRSA1024 = insecureAllowRsa1024
        guard rateLimit >= 0 else { throw ValidationError("--rate-limit takes 0 (no limit) or more requests a minute") }
        settings.rateLimit = rateLimit
        try settings.loadAttestation(statusFile: androidAttestationStatus, insecureRootFiles: insecureAttestationRoot)
        if let insecureBcryptCost {
            try settings.setInsecureTestBcryptCost(insecureBcryptCost)
            logger.warning(
                "passwords and PINs are hashed at bcrypt cost \(insecureBcryptCost), below \(PasswordHasher.minimumCost): for tests only (--insecure-bcrypt-cost)")
        }
        let push = try PushEndpoints(
            insecureAPNsURL: insecureApnsURL, insecureFCMURL: insecureFcmURL,
            insecureTrustRootsPEM: try insecurePushCA.map { try String(contentsOfFile: $0, encoding: .utf8) })
        for (flag, value) in [("--insecure-apns-url", insecureApnsURL), ("--insecure-fcm-url", insecureFcmURL), ("--insecure-push-ca", insecurePushCA)]
        where value != nil {
            logger.warning("pushes are sent or trusted outside Apple's and Google's hosts: for tests only (\(flag))")
        }
        let traces = try otelEndpoint.map { try TraceExport.bootstrap(endpoint: $0, logger: logger) }
        let runtime = try await TouchstoneRuntime.open(
            database: try database.location(), settings: settings, push: push, logger: logger)
        let host = host
        let issuer = settings.issuer
        try await runtime.serve(
            host: host, port: port, metricsPort: metricsPort, adminPort: adminPort, traces: traces, reservation: reservation
        ) { boundPort in
            FileHandle.standardOutput.write(Data("touchstone serving http://\(host):\(boundPort) (issuer \(issuer))\n".utf8))
        }
    }
}

enum CLILog {
    /// A logger at `LOG_LEVEL` (default info) on standard error, in text or, with `LOG_FORMAT=json`, one JSON object
    /// per line.
    static func makeLogger(_ label: String) -> Logger {
        let format: LineLogHandler.Format = ProcessInfo.processInfo.environment["LOG_FORMAT"] == "json" ? .json : .text
        var logger = Logger(label: label) { LineLogHandler(label: $0, format: format) }
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
        return logger
    }
}
