import ArgumentParser
import Foundation
import TouchstoneClient
import TouchstoneProtocol

struct Device: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Act as a device on this machine: register, log in, opt out, deregister.",
        subcommands: [
            Register.self, Login.self, Unlock.self, StepUp.self, SetPIN.self, Inbox.self, Approve.self, Deny.self,
            Dismiss.self, RecoveryCodes.self, Sessions.self, EndSession.self, OptOut.self, Deregister.self, Reset.self,
            Status.self,
        ])

    @OptionGroup var options: DeviceOptionValues
}

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

/// A `device` subcommand: its options are its own, over those given to `device`.
protocol DeviceSubcommand: AsyncParsableCommand {
    var own: DeviceOptionValues { get }
    var device: Device { get }
}

extension DeviceSubcommand {
    var options: DeviceOptions { DeviceOptions(own, over: device.options) }
}

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
}

/// `--verifier`: how the user is verified.
enum VerifierChoice: String, ExpressibleByArgument, CaseIterable {
    case match, nomatch, cancel, fallback, lockout, fprintd

    func verifier() -> any UserVerifier {
        switch self {
        case .fprintd: FprintdVerifier() ?? NoBiometrics()
        default: ScriptedVerifier(ScriptedVerifier.Outcome(rawValue: rawValue) ?? .match)
        }
    }
}

/// Options of subcommands that verify the user.
struct VerifierOptions: ParsableArguments {
    @Option(
        help: """
            match, nomatch, cancel, fallback or lockout (scripted, for tests and demos), or fprintd. \
            Default: fprintd where installed; otherwise biometrics are unavailable and the PIN is used.
            """)
    var verifier: VerifierChoice?
}

/// Runs a device subcommand, turning SDK errors into one line on standard error and a non-zero exit.
func runDevice(_ options: DeviceOptions, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as TouchstoneError {
        Terminal.printError(explain(error, options: options))
        throw ExitCode.failure
    } catch let error as ExitCode {
        throw error
    } catch {
        Terminal.printError("\(error)".replacingOccurrences(of: "\n", with: " "))
        throw ExitCode.failure
    }
}

/// A sentence a person understands.
func explain(_ error: TouchstoneError, options: DeviceOptions) -> String {
    switch error.code {
    case .pinIncorrect:
        let remaining = error.attemptsRemaining ?? 0
        return "wrong PIN: \(remaining) attempt\(remaining == 1 ? "" : "s") remaining before the PIN locks"
    case .pinLocked:
        return "the PIN is locked after too many wrong attempts; log in with a fingerprint, or register this device again"
    case .bindingMismatch:
        return "this device no longer matches its registration; its keys were removed: register again"
    case .deviceCompromised:
        return "this device reports being compromised (jailbroken or rooted); nothing was sent"
    case .userCancelled:
        return "cancelled; nothing changed"
    case .biometryFailed:
        return "the fingerprint did not match; try again"
    case .biometryLockout:
        return "the fingerprint sensor is locked after too many attempts; log in with the PIN (--pin)"
    case .userFallback:
        return "the PIN was chosen; log in with --pin"
    case .biometryNotAvailable:
        return "no fingerprint reader is available; log in with the PIN (--pin)"
    case .notRegistered:
        return "this profile is not registered with \(options.server); run `touchstone device register`"
    case .reauthenticationRequired:
        return "the session is over; unlock with `touchstone device login`"
    case .invalidPIN:
        return "the PIN is not acceptable: \(error.message)"
    case .optedOut:
        return "biometrics are off on this device; log in with the PIN (--pin)"
    case .approvalDenied:
        return "your other device denied this registration"
    case .approvalExpired:
        return "nobody approved this registration in time; register again"
    case .stepUpRequired:
        return "confirm with your password first: `touchstone device step-up`"
    case .numberRequired:
        return "pick the number the browser or the new device shows with --number"
    case .transport:
        return error.message
    case .server where error.serverCode == .recoveryCodeRequired:
        return "no device of yours can approve this one: register with --recovery-code and one of your recovery codes"
    case .server:
        return "the server refused (\(error.serverCode?.rawValue ?? "unknown")): \(error.message)"
    default:
        return "\(error.code): \(error.message)"
    }
}

/// Prints a session as JSON, or a line for people.
func report(_ session: Session, json: Bool) throws {
    if json {
        print(String(decoding: try WireCoding.encoder().encode(session), as: UTF8.self))
    } else {
        print("logged in as user \(session.userId) (\(session.amr.joined(separator: ", ")), \(session.acr)); the access token lasts \(session.expiresIn) s")
    }
}

/// Asks for the PIN on the terminal (hidden), or reads it from standard input.
func askPIN(_ reason: String? = nil) -> String? {
    Terminal.readSecret(prompt: (reason.map { $0 + "\n" } ?? "") + "PIN: ")
}

extension Device {
    struct Register: DeviceSubcommand {
        static let configuration = CommandConfiguration(abstract: "Register this device with a username and password.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Option(help: "The account's username.") var username: String
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
        @Option(help: "The app PIN to set (asked without echo when absent).") var pin: String?
        @Flag(help: "Report this device as compromised (to test the integrity gate).") var compromised = false
        @Option(
            help: """
                One of your recovery codes, when no other device of yours can approve this one (it is then spent).
                """)
        var recoveryCode: String?
        @OptionGroup var testAttestation: InsecureTestAttestationOptions

        func run() async throws {
            try await runDevice(options) {
                let client = try options.client(
                    verifier: verification.verifier, compromised: compromised, attestor: try testAttestation.attestor())
                // The integrity gate comes before any question or request.
                try await client.checkIntegrity()
                let password =
                    passwordStdin ? readLine(strippingNewline: true) : Terminal.readSecret(prompt: "Password: ")
                guard let password, !password.isEmpty else {
                    throw TouchstoneError(.userCancelled, "no password")
                }
                guard let pin = pin ?? askPIN() else { throw TouchstoneError(.userCancelled, "no PIN") }
                let session = try await client.register(
                    username: username, password: password, pin: pin, recoveryCode: recoveryCode
                ) { pending in
                    Terminal.printLine(
                        "approve this device on your other device: pick \(pending.number) there (waiting until \(pending.expiresAt.formatted(date: .omitted, time: .shortened)); Ctrl-C stops)"
                    )
                }
                let status = try await client.status()
                if options.json {
                    try report(session, json: true)
                } else {
                    print("registered device \(status.deviceId ?? "") for \(username)\(status.biometric ? " with fingerprint and PIN" : " with PIN only")")
                }
            }
        }
    }

    struct Login: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Log in with a fingerprint (falling back to the PIN), or with --pin.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Option(help: "Log in with this PIN instead of a fingerprint.") var pin: String?

        func run() async throws {
            try await runDevice(options) {
                let client = try options.client(verifier: verification.verifier)
                let session: Session
                if let pin {
                    session = try await client.login(pin: pin)
                } else {
                    session = try await client.login(prompt: "Log in to \(options.clientId)") { reason in
                        askPIN(explain(reason, options: options))
                    }
                }
                try report(session, json: options.json)
            }
        }
    }

    struct Unlock: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Refresh the session silently, or after inactivity unlock with a fingerprint or the PIN.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Option(help: "Unlock with this PIN when a fingerprint is needed.") var pin: String?

        func run() async throws {
            try await runDevice(options) {
                let client = try options.client(verifier: verification.verifier)
                let session: Session
                do {
                    session = try await client.refresh()
                } catch let error as TouchstoneError where error.code == .reauthenticationRequired {
                    if let pin {
                        session = try await client.login(pin: pin)
                    } else {
                        session = try await client.login(prompt: "Unlock \(options.clientId)") { reason in
                            askPIN(explain(reason, options: options))
                        }
                    }
                }
                try report(session, json: options.json)
            }
        }
    }

    struct OptOut: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "opt-out", abstract: "Turn biometrics off for this device; it logs in with the PIN from now on.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await runDevice(options) {
                try await options.client().optOut()
                print("biometrics are off on this device; log in with the PIN")
            }
        }
    }

    struct Deregister: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke this device on the server, then delete its keys here.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await runDevice(options) {
                try await options.client().deregister()
                print("device deregistered; its keys are deleted")
            }
        }
    }

    struct Reset: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete this device's keys and sessions here only (the server is not told).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await runDevice(options) {
                try await options.client().reset()
                print("local keys and sessions deleted")
            }
        }
    }

    struct Status: DeviceSubcommand {
        static let configuration = CommandConfiguration(abstract: "Show what this profile holds for the app.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await runDevice(options) {
                let status = try await options.client().status()
                if options.json {
                    print(String(decoding: try WireCoding.encoder().encode(status), as: UTF8.self))
                } else if status.registered {
                    print("registered: device \(status.deviceId ?? "") of \(status.username ?? ""), biometric \(status.biometric ? "on" : "off")")
                } else {
                    print("not registered with \(options.server)")
                }
            }
        }
    }

    struct StepUp: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "step-up", abstract: "Confirm the password again for privileged actions (a short window).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

        func run() async throws {
            try await runDevice(options) {
                let password =
                    passwordStdin ? readLine(strippingNewline: true) : Terminal.readSecret(prompt: "Password: ")
                guard let password, !password.isEmpty else { throw TouchstoneError(.userCancelled, "no password") }
                let token = try await options.client().stepUp(password: password)
                print("privileged for \(token.expiresIn) s: change the PIN or the password, or remove another device")
            }
        }
    }

    struct SetPIN: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "set-pin", abstract: "Set a new app PIN (unlocks a locked PIN); needs a step-up first.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Option(help: "The new PIN (asked without echo when absent).") var pin: String?

        func run() async throws {
            try await runDevice(options) {
                guard let pin = pin ?? askPIN() else { throw TouchstoneError(.userCancelled, "no PIN") }
                try await options.client().changePIN(pin)
                print("the PIN is changed")
            }
        }
    }

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
            try await runDevice(options) {
                let entries = try await options.client().inbox(waitSeconds: wait)
                if options.json {
                    print(
                        String(
                            decoding: try WireCoding.encoder().encode(TouchstoneProtocol.Inbox(entries: entries)),
                            as: UTF8.self))
                    return
                }
                if entries.isEmpty { print("nothing is waiting") }
                for entry in entries {
                    switch entry {
                    case .request(let item): print(describe(item))
                    case .notice(let notice): print(describe(notice))
                    }
                }
            }
        }
    }

    struct Dismiss: DeviceSubcommand {
        static let configuration = CommandConfiguration(abstract: "Dismiss a security notice from the inbox.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Argument(help: "The notice's id, from `device inbox`.") var id: String

        func run() async throws {
            try await runDevice(options) {
                try await options.client().dismissNotice(id: id)
                print("notice \(id) dismissed")
            }
        }
    }

    struct RecoveryCodes: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-codes",
            abstract: """
                Create the account's ten recovery codes (replacing earlier ones); needs a step-up first. Keep them \
                somewhere safe: each lets a new device join without this one.
                """)
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await runDevice(options) {
                let codes = try await options.client().createRecoveryCodes()
                if options.json {
                    print(String(decoding: try WireCoding.encoder().encode(TouchstoneProtocol.RecoveryCodes(codes: codes)), as: UTF8.self))
                    return
                }
                Terminal.printLine(
                    "your recovery codes (shown only now; each works once, and they replace any earlier ones):")
                for code in codes { print(code) }
            }
        }
    }

    struct Sessions: DeviceSubcommand {
        static let configuration = CommandConfiguration(abstract: "List the account's live sessions.")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device

        func run() async throws {
            try await runDevice(options) {
                let sessions = try await options.client().sessions()
                if options.json {
                    print(String(decoding: try WireCoding.encoder().encode(SessionList(sessions: sessions)), as: UTF8.self))
                    return
                }
                for session in sessions {
                    let via = session.deviceId.map { "device \($0)" } ?? "no device"
                    print(
                        "\(session.sessionId)  \(session.clientId)  \(session.amr.joined(separator: ",")) \(session.acr)  \(via)  from \(session.ip ?? "?")  since \(session.createdAt.formatted(.iso8601))\(session.current ? "  (this one)" : "")"
                    )
                }
            }
        }
    }

    struct EndSession: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "end-session",
            abstract: "End one of the account's sessions (another one than this needs a step-up first).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @Argument(help: "The session's id, from `device sessions`.") var id: String

        func run() async throws {
            try await runDevice(options) {
                try await options.client().endSession(id: id)
                print("session \(id) ended")
            }
        }
    }

    struct Approve: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Approve a request from the inbox with a fingerprint (or the PIN).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Argument(help: "The request's id, from `device inbox`.") var id: String
        @Option(help: "Approve with this PIN instead of a fingerprint.") var pin: String?
        @Option(help: "For a web login or a new device: the number the browser or the new device shows.") var number: Int?
        @Option(help: "The prompt shown with the fingerprint request.") var prompt: String?

        func run() async throws {
            try await runDevice(options) {
                try await decide(options, verification, id: id, pin: pin, prompt: prompt, approve: true, number: number)
            }
        }
    }

    struct Deny: DeviceSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Deny a request from the inbox (signed like an approval, so only you can deny).")
        @OptionGroup var own: DeviceOptionValues
        @ParentCommand var device: Device
        @OptionGroup var verification: VerifierOptions
        @Argument(help: "The request's id, from `device inbox`.") var id: String
        @Option(help: "Deny with this PIN instead of a fingerprint.") var pin: String?

        func run() async throws {
            try await runDevice(options) {
                try await decide(options, verification, id: id, pin: pin, prompt: nil, approve: false, number: nil)
            }
        }
    }
}

/// One line for a person: what is asked, and by whom.
func describe(_ item: InboxItem) -> String {
    let asker = "\(item.clientId) of \(item.publisher)"
    switch item.kind {
    case .confirmation:
        return "\(item.id)  confirm: \"\(item.text ?? "")\" \(item.amount ?? "") \(item.currency ?? "") to \(item.payee ?? "")  (asked by \(asker))"
    case .webLogin:
        return "\(item.id)  web login from \(item.browser ?? "a browser") at \(item.ip ?? "?"): pick the browser's number \(numbers(item))  (\(asker))"
    default:
        return "\(item.id)  new device \"\(item.name ?? "")\" (\(item.model ?? "")) from \(item.ip ?? "?") wants to join your account: pick its number \(numbers(item))  (\(asker))"
    }
}

/// One line for a person: what happened to the account.
func describe(_ notice: SecurityNotice) -> String {
    let detail = notice.detail
    let device = detail.deviceName.map { "\"\($0)\"" } ?? detail.deviceId ?? "a device"
    let what =
        switch notice.event {
        case .deviceAdded: "device \(device) was added to your account"
        case .deviceRemoved: "device \(device) was removed from your account"
        case .passwordChanged: "your password was changed"
        case .pinChanged: "the PIN of \(device) was changed"
        case .recoveryCodesCreated: "new recovery codes were created (the earlier ones no longer work)"
        case .recoveryCodeUsed: "a recovery code was used to add \(device)"
        case .passkeyAdded: "passkey \"\(detail.passkeyName ?? "")\" was added"
        case .passkeyRemoved: "passkey \"\(detail.passkeyName ?? "")\" was removed"
        case .sessionsEnded: "a session\(detail.deviceId == nil ? "" : " of \(device)") was ended"
        default: notice.event.rawValue
        }
    let from = detail.ip.map { " from \($0)" } ?? ""
    return "\(notice.id)  notice: \(what)\(from) at \(notice.at.formatted(.iso8601))  (dismiss with `device dismiss \(notice.id)`)"
}

/// The numbers to pick from, as `12 / 47 / 83`.
private func numbers(_ item: InboxItem) -> String {
    (item.numbers ?? []).map(String.init).joined(separator: " / ")
}

/// Approves or denies the inbox item `id` after verifying the user.
func decide(
    _ options: DeviceOptions, _ verification: VerifierOptions, id: String, pin: String?, prompt: String?, approve: Bool,
    number: Int?
) async throws {
    let client = try options.client(verifier: verification.verifier)
    guard let item = try await client.pendingRequests().first(where: { $0.id == id }) else {
        throw TouchstoneError(.server, "no request \(id) waits for this device", serverCode: .notFound)
    }
    var number = number
    if approve, item.kind == .webLogin || item.kind == .enrollment, number == nil {
        let shownBy = item.kind == .webLogin ? "in the browser" : "on the new device"
        number = Terminal.readSecret(prompt: describe(item) + "\nNumber shown \(shownBy): ").flatMap { Int($0) }
    }
    let defaultPrompt =
        switch item.kind {
        case .confirmation: "Confirm \(item.amount ?? "") \(item.currency ?? "") to \(item.payee ?? "")"
        case .webLogin: "Approve the web login"
        default: "Approve the new device \(item.name ?? "")"
        }
    let status: DecisionStatus
    if let pin {
        status = approve
            ? try await client.approve(item, pin: pin, number: number) : try await client.deny(item, pin: pin)
    } else {
        let fallback: PINPrompt = { reason in askPIN(explain(reason, options: options)) }
        status = approve
            ? try await client.approve(item, prompt: prompt ?? defaultPrompt, number: number, fallback: fallback)
            : try await client.deny(item, prompt: prompt ?? defaultPrompt, fallback: fallback)
    }
    if options.json {
        print(String(decoding: try WireCoding.encoder().encode(DecisionRecorded(status: status)), as: UTF8.self))
    } else {
        print("\(id): \(status.rawValue)")
    }
}
