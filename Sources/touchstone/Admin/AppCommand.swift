import ArgumentParser
import Foundation
import TouchstoneDomain
import TouchstoneProtocol
import TouchstoneStorage

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
                try await $0.apps.save(policy, client: client, attestation: attested, by: .commandLine)
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
            try await withAdmin(database) { try await $0.apps.setPushCredentials(input, clientId: clientId, by: .commandLine) }
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
            try await withAdmin(database) { try await $0.apps.setClientKeys(keys, clientId: clientId, by: .commandLine) }
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
                for app in try await admin.apps.policies() {
                    listed.append(Listed(policy: app, push: try await admin.apps.pushSetup(clientId: app.clientId)))
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
