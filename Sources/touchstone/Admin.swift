import ArgumentParser
import Foundation
import TouchstoneDomain
import TouchstoneProtocol
import TouchstoneServer
import TouchstoneStorage

struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage apps, API keys, users, devices and signing keys on the database.",
        subcommands: [
            AppCommand.self, APIKeyCommand.self, Users.self, UserCommand.self, Devices.self, Revoke.self, Audit.self,
            SigningKey.self,
        ])
}

/// Opens the database for one admin command and closes it afterwards.
func withAdmin<T>(_ database: DatabaseOptions, _ body: (TouchstoneAdmin) async throws -> T) async throws -> T {
    try await TouchstoneAdmin.with(database: try database.location(), logger: CLILog.makeLogger("touchstone.admin"), body)
}

/// Prints a value as one JSON object.
func printJSON<T: Encodable>(_ value: T) throws {
    print(String(decoding: try WireCoding.encoder().encode(value), as: UTF8.self))
}

extension AttestationRequirement: ExpressibleByArgument {}

extension Date {
    var rfc3339: String { ISO8601DateFormatter().string(from: self) }
}

struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Create and list apps, and set up their pushes.",
        subcommands: [Create.self, Push.self, SetJWKS.self, List.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an app, or change its publisher and policy (a running server sees it at once).")

        @Argument(help: "The app's client id, e.g. com.example.pay.") var clientId: String
        @Option(help: "The publisher whose apps share enrolments.") var publisher: String
        @Option(help: "Wrong PINs before the PIN locks.") var maxPinAttempts = 5
        @Option(help: "Idle seconds after which a session needs unlocking.") var inactivityTimeout = 900
        @Option(help: "Seconds a step-up lasts.") var privilegedWindow = 300
        @Flag(help: "Forbid biometric keys; devices use their PIN.") var noBiometrics = false
        @Flag(help: "Do not require a PIN (devices then need a biometric key).") var noPin = false
        @Flag(help: "Accept devices that report being compromised.") var allowCompromisedDevices = false
        @Option(help: "Makes the app an OpenID Connect client that may be sent back here (repeat for each URI).")
        var redirectUri: [String] = []
        @Option(help: "Where the client may be sent after logout (repeat for each URI).")
        var postLogoutRedirectUri: [String] = []
        @Option(help: "The name the sign-in page shows (default: the client id).") var name: String?
        @Flag(help: "A confidential client: prints a new client secret, once, on the last line.")
        var clientSecret = false
        @Option(help: "How its ID tokens are signed: RS256 or ES256 (default RS256; ES256 with --fapi).")
        var idTokenAlg: String?
        @Option(help: "A JWK Set file of the client's public keys: it then authenticates with private_key_jwt.")
        var jwks: String?
        @Flag(help: "Applies the FAPI 2.0 Security Profile: PAR only, DPoP-bound tokens, no RS256 (needs --jwks).")
        var fapi = false
        @Option(help: "Lets the client ask for approvals through OpenID CIBA: poll or ping (confidential clients only).")
        var cibaMode: String?
        @Option(help: "Where a ping client is told of a decision (https, or http on localhost).")
        var cibaNotificationEndpoint: String?
        @Option(help: "Whether enrolments need a hardware key attestation: none or required.")
        var attestation: AttestationRequirement = .none
        @Option(help: "An Android build allowed to attest: PACKAGE:SHA256 of its signing certificate (repeatable).")
        var androidApp: [String] = []
        @Option(help: "An Apple App ID allowed to attest with App Attest: TEAMID.bundle.id (repeatable).")
        var appleAppId: [String] = []
        @Flag(help: "Also accept App Attest keys of the development environment.") var appleDevelopment = false
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func validate() throws {
            if cibaNotificationEndpoint != nil, cibaMode == nil {
                throw ValidationError("--ciba-notification-endpoint needs --ciba-mode ping")
            }
            if redirectUri.isEmpty, cibaMode == nil,
                !postLogoutRedirectUri.isEmpty || name != nil || clientSecret || jwks != nil || fapi
            {
                throw ValidationError(
                    "--post-logout-redirect-uri, --name, --client-secret, --jwks and --fapi need --redirect-uri")
            }
        }

        func run() async throws {
            let policy = AppPolicy(
                clientId: clientId, publisher: publisher, biometricAllowed: !noBiometrics, pinRequired: !noPin,
                maxPinAttempts: maxPinAttempts, inactivityTimeoutSeconds: inactivityTimeout,
                privilegedWindowSeconds: privilegedWindow, refuseCompromisedDevices: !allowCompromisedDevices,
                attestation: attestation)
            let attested = AttestationRegistration(
                androidApps: androidApp, appleAppIDs: appleAppId, appleDevelopment: appleDevelopment)
            let keys = try jwks.map { try ClientKeySet(file: try Push.read($0, option: "--jwks")) }
            var client =
                redirectUri.isEmpty && cibaMode == nil
                ? nil
                : OIDCClientRegistration(
                    clientId: clientId, name: name, redirectURIs: redirectUri, postLogoutRedirectURIs: postLogoutRedirectUri,
                    confidential: clientSecret, idTokenAlgorithm: idTokenAlg ?? (fapi ? "ES256" : "RS256"), keys: keys)
            client?.fapi = fapi
            client?.ciba = cibaMode.map {
                CIBAClientRegistration(mode: $0, notificationEndpoint: cibaNotificationEndpoint)
            }
            let secret = try await withAdmin(database) {
                try await $0.saveApp(policy, client: client, attestation: attested)
            }
            if output.json, client != nil {
                try printJSON(SavedClient(app: policy, redirectUris: redirectUri, clientSecret: secret))
            } else if output.json {
                try printJSON(policy)
            } else {
                print("app \(clientId) of publisher \(publisher) saved")
                if let secret {
                    print("OpenID Connect client secret for \(clientId); it is shown only now:")
                    print(secret)
                }
            }
        }
    }

    /// `app create --json` for an OpenID Connect client.
    struct SavedClient: Encodable {
        var app: AppPolicy
        var redirectUris: [String]
        /// A confidential client's new secret, shown only now.
        var clientSecret: String?
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set up, replace or remove an app's APNs and FCM credentials (servers use them within 30 s).",
            discussion: "Options for one provider leave the other's settings as they are.")

        @Argument(help: "The app's client id.") var clientId: String
        @Option(help: "The APNs token-signing key: the PKCS#8 P-256 .p8 file from Apple.") var apnsKeyFile: String?
        @Option(help: "The key's id (ten characters).") var apnsKeyId: String?
        @Option(help: "The Apple team id (ten characters).") var apnsTeamId: String?
        @Option(help: "A bundle id devices may register for (repeatable).") var apnsTopic: [String] = []
        @Option(help: "A Google service-account JSON file for FCM HTTP v1.") var fcmServiceAccount: String?
        @Flag(help: "Remove the APNs credentials.") var noApns = false
        @Flag(help: "Remove the FCM credentials.") var noFcm = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let input = PushCredentialsInput(
                apnsKeyPEM: try apnsKeyFile.map {
                    String(decoding: try Self.read($0, option: "--apns-key-file"), as: UTF8.self)
                },
                apnsKeyId: apnsKeyId, apnsTeamId: apnsTeamId, apnsTopics: apnsTopic,
                fcmServiceAccount: try fcmServiceAccount.map { try Self.read($0, option: "--fcm-service-account") },
                removesAPNs: noApns, removesFCM: noFcm)
            try await withAdmin(database) { try await $0.setPushCredentials(input, clientId: clientId) }
            print("push credentials of \(clientId) saved")
        }

        /// A file's bytes, or an error of one line naming the option.
        static func read(_ path: String, option: String) throws -> Data {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError("\(option): cannot read \(path)")
            }
            return data
        }
    }

    struct SetJWKS: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-jwks",
            abstract: "Replace an OpenID Connect client's JWK Set (private_key_jwt); servers use it at once.",
            discussion: "Public keys only: EC P-256, OKP Ed25519 or RSA of at least 2048 bits. A private member refuses "
                + "the file, and nothing is stored.")

        @Argument(help: "The client's id.") var clientId: String
        @Argument(help: "The JWK Set file.") var file: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let keys = try ClientKeySet(file: try Push.read(file, option: "set-jwks"))
            try await withAdmin(database) { try await $0.setClientKeys(keys, clientId: clientId) }
            print("JWK Set of \(clientId) saved (\(keys.keys.count) keys)")
        }
    }

    /// An app as `app list --json` shows it: its policy's members and `push`.
    struct Listed: Encodable {
        var policy: AppPolicy
        var push: PushSetupView

        private enum CodingKeys: String, CodingKey {
            case push
        }

        func encode(to encoder: any Encoder) throws {
            try policy.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(push, forKey: .push)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List apps, their policies and which push providers they are set up for (never the keys).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let apps = try await withAdmin(database) { admin in
                var listed: [Listed] = []
                for app in try await admin.apps() {
                    listed.append(Listed(policy: app, push: try await admin.pushSetup(clientId: app.clientId)))
                }
                return listed
            }
            if output.json {
                try printJSON(["apps": apps])
                return
            }
            for listed in apps {
                let app = listed.policy
                print(
                    "\(app.clientId)  publisher=\(app.publisher) biometrics=\(app.biometricAllowed) pin=\(app.pinRequired) maxPinAttempts=\(app.maxPinAttempts) inactivity=\(app.inactivityTimeoutSeconds)s attestation=\(app.attestation.rawValue) push=\(Self.push(listed.push))"
                )
            }
        }

        /// `apns(TOPIC,…),fcm(PROJECT)`, or `none`.
        static func push(_ setup: PushSetupView) -> String {
            let providers = [
                setup.apns.map { "apns(\($0.topics.joined(separator: ",")))" },
                setup.fcm.map { "fcm(\($0.projectId))" },
            ].compactMap(\.self)
            return providers.isEmpty ? "none" : providers.joined(separator: ",")
        }
    }
}

struct APIKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-key", abstract: "API keys for relying services.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an API key; it is printed once, on the last line.")
        @Argument(help: "The app the key belongs to.") var clientId: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let (id, key) = try await withAdmin(database) { try await $0.createAPIKey(clientId: clientId) }
            print("API key \(id) for \(clientId); it is shown only now:")
            print(key)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List API keys (never the keys themselves).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let keys = try await withAdmin(database) { try await $0.apiKeys() }
            if output.json {
                try printJSON(["apiKeys": keys])
                return
            }
            for key in keys {
                print("\(key.id)  \(key.clientId)  created \(key.createdAt.rfc3339)\(key.revokedAt.map { "  revoked \($0.rfc3339)" } ?? "")")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an API key.")
        @Argument(help: "The key's id, from `api-key list`.") var id: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdmin(database) { try await $0.revokeAPIKey(id: id) }
            print("API key \(id) revoked")
        }
    }
}

struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List users.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let users = try await withAdmin(database) { try await $0.users() }
        if output.json {
            try printJSON(["users": users])
            return
        }
        for user in users {
            print("\(user.userId)  \(user.username)  created \(user.createdAt.rfc3339)")
        }
    }
}

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List devices, of one user or of all.")
    @Option(help: "Only this user's devices.") var user: String?
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let devices = try await withAdmin(database) { try await $0.devices(username: user) }
        if output.json {
            try printJSON(["devices": devices])
            return
        }
        for device in devices {
            let state = device.revokedAt.map { "revoked \($0.rfc3339)" } ?? (device.pinLocked ? "PIN locked" : "active")
            print(
                "\(device.deviceId)  \(device.username)  \(device.name) (\(device.model))  \(device.clientId)  biometric=\(device.biometric)  attestation=\(device.attestation?.rawValue ?? "none")  \(state)"
            )
        }
    }
}

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Act on one user.", subcommands: [Reset.self])

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Reset a user after checking their identity out of band: revoke every device and passkey, end every \
                session and unfinished enrolment, spend every recovery code. The password then enrols a new device.
                """)
        @Argument(help: "The user's username.") var username: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdmin(database) { try await $0.resetUser(username: username) }
            print("user \(username) reset: every device, passkey, session and recovery code is gone; the password enrols a new device")
        }
    }
}

struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Revoke a device and end its sessions.")
    @Argument(help: "The device id.") var deviceId: String
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        try await withAdmin(database) { try await $0.revoke(deviceId: deviceId) }
        print("device \(deviceId) revoked")
    }
}

struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show audit events.")
    @Option(help: "Only events at or after this RFC 3339 time.") var since: String?
    @Option(help: "Only this user's events.") var user: String?
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let since, ISO8601DateFormatter().date(from: since) == nil {
            throw ValidationError("--since takes an RFC 3339 time such as 2026-11-21T12:00:00Z")
        }
    }

    func run() async throws {
        let since = since.flatMap { ISO8601DateFormatter().date(from: $0) }
        let events = try await withAdmin(database) { try await $0.auditEvents(since: since, username: user) }
        if output.json {
            try printJSON(["events": events.map(Line.init)])
            return
        }
        for event in events {
            let fields = [
                event.userId.map { "user=\($0)" }, event.deviceId.map { "device=\($0)" },
                event.clientId.map { "app=\($0)" }, event.ip.map { "ip=\($0)" }, event.detail,
            ].compactMap { $0 }
            print("\(event.at.rfc3339)  \(event.event)  \(event.outcome)  \(fields.joined(separator: " "))")
        }
    }
}

extension Audit {
    /// An event as `audit --json` shows it: the actor by its kind alone.
    struct Line: Encodable {
        var at: Date
        var event: AuditEventType
        var outcome: AuditOutcome
        var userId: String?
        var deviceId: String?
        var clientId: String?
        var ip: String?
        var detail: String?
        var requestId: String?
        var userAgent: String?
        var actor: String?

        init(_ event: AuditEvent) {
            at = event.at
            self.event = event.event
            outcome = event.outcome
            userId = event.userId
            deviceId = event.deviceId
            clientId = event.clientId
            ip = event.ip
            detail = event.detail
            requestId = event.requestId
            userAgent = event.userAgent
            actor = event.actor?.kind.rawValue
        }
    }
}

struct SigningKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing-key", abstract: "The server's token-signing keys.", subcommands: [Rotate.self])

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a new signing key now; servers sign with it ten minutes later.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let (kid, activatesAt) = try await withAdmin(database) { try await $0.rotateSigningKey() }
            if output.json {
                try printJSON(["kid": kid, "activatesAt": activatesAt.rfc3339])
            } else {
                print("published key \(kid); it signs from \(activatesAt.rfc3339)")
            }
        }
    }
}
