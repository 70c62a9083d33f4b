import Crypto
import Foundation
import TouchstoneStorage
import _CryptoExtras

/// What an administrator gives to set up an app's pushes (`admin app push`), checked before anything is stored: an
/// APNs token-signing key with its ids and topics, a Google service account, or the removal of either. A provider
/// given nothing keeps its settings.
package struct PushCredentialsInput: Sendable, Equatable {
    /// The `.p8` file's text (`--apns-key-file`).
    package var apnsKeyPEM: String?
    /// `--apns-key-id`.
    package var apnsKeyId: String?
    /// `--apns-team-id`.
    package var apnsTeamId: String?
    /// Each `--apns-topic`.
    package var apnsTopics: [String]
    /// The service-account JSON file's bytes (`--fcm-service-account`).
    package var fcmServiceAccount: Data?
    /// `--no-apns`.
    package var removesAPNs: Bool
    /// `--no-fcm`.
    package var removesFCM: Bool

    package init(
        apnsKeyPEM: String? = nil, apnsKeyId: String? = nil, apnsTeamId: String? = nil, apnsTopics: [String] = [],
        fcmServiceAccount: Data? = nil, removesAPNs: Bool = false, removesFCM: Bool = false
    ) {
        self.apnsKeyPEM = apnsKeyPEM
        self.apnsKeyId = apnsKeyId
        self.apnsTeamId = apnsTeamId
        self.apnsTopics = apnsTopics
        self.fcmServiceAccount = fcmServiceAccount
        self.removesAPNs = removesAPNs
        self.removesFCM = removesFCM
    }

    /// What to do to each provider's credentials of the app.
    /// - Throws: ``ConfigurationError`` when nothing is to change, or as ``apnsChange()`` and ``fcmChange()`` say.
    package func changes() throws -> (
        apns: PushCredentialChange<APNsCredentials>, fcm: PushCredentialChange<FCMServiceAccount>
    ) {
        let changes = (apns: try apnsChange(), fcm: try fcmChange())
        if case .keep = changes.apns, case .keep = changes.fcm {
            throw ConfigurationError(
                "nothing to change: give --apns-… options, --fcm-service-account, --no-apns or --no-fcm")
        }
        return changes
    }

    /// What to do to the app's APNs credentials.
    /// - Throws: ``ConfigurationError`` when the APNs flags go with `--no-apns`, or some are missing; when the key is
    ///   not a PKCS#8 P-256 private key in PEM; when the key id or team id is not ten characters of A–Z and 0–9; or
    ///   when a topic is not a bundle id. The message never holds key material.
    func apnsChange() throws -> PushCredentialChange<APNsCredentials> {
        let given = apnsKeyPEM != nil || apnsKeyId != nil || apnsTeamId != nil || !apnsTopics.isEmpty
        if removesAPNs {
            guard !given else { throw ConfigurationError("--no-apns cannot go with other --apns-… options") }
            return .remove
        }
        guard given else { return .keep }
        guard let apnsKeyPEM, let apnsKeyId, let apnsTeamId, !apnsTopics.isEmpty else {
            throw ConfigurationError(
                "APNs needs --apns-key-file, --apns-key-id, --apns-team-id and at least one --apns-topic")
        }
        guard apnsKeyPEM.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("-----BEGIN PRIVATE KEY-----"),
            (try? P256.Signing.PrivateKey(pemRepresentation: apnsKeyPEM)) != nil
        else { throw ConfigurationError("--apns-key-file is not a PKCS#8 P-256 private key in PEM (an APNs .p8 file)") }
        guard Self.isAppleIdentifier(apnsKeyId) else {
            throw ConfigurationError("--apns-key-id must be ten characters of A-Z and 0-9, as Apple shows it")
        }
        guard Self.isAppleIdentifier(apnsTeamId) else {
            throw ConfigurationError("--apns-team-id must be ten characters of A-Z and 0-9, as Apple shows it")
        }
        for topic in apnsTopics where !Self.isBundleID(topic) {
            throw ConfigurationError("--apns-topic \(topic) is not a bundle id (letters, digits, '-' and '.')")
        }
        var topics: [String] = []
        for topic in apnsTopics where !topics.contains(topic) { topics.append(topic) }
        return .set(APNsCredentials(keyPEM: apnsKeyPEM, keyId: apnsKeyId, teamId: apnsTeamId, topics: topics))
    }

    /// What to do to the app's FCM credentials.
    /// - Throws: ``ConfigurationError`` when `--fcm-service-account` goes with `--no-fcm`; when the file is not a JSON
    ///   object with non-empty `project_id`, `client_email`, `private_key_id`, `private_key` and `token_uri`; when
    ///   `private_key` is not an RSA private key (2048 bits or more) in PEM; or when `token_uri` is not an https URL.
    ///   The message never holds key material.
    func fcmChange() throws -> PushCredentialChange<FCMServiceAccount> {
        if removesFCM {
            guard fcmServiceAccount == nil else {
                throw ConfigurationError("--no-fcm cannot go with --fcm-service-account")
            }
            return .remove
        }
        guard let fcmServiceAccount else { return .keep }
        guard let account = try? JSONDecoder().decode(FCMServiceAccount.self, from: fcmServiceAccount),
            ![account.projectId, account.clientEmail, account.privateKeyId, account.privateKeyPEM, account.tokenURI]
                .contains(where: \.isEmpty)
        else {
            throw ConfigurationError(
                "--fcm-service-account is not a service-account JSON with project_id, client_email, private_key_id, "
                    + "private_key and token_uri")
        }
        guard (try? _RSA.Signing.PrivateKey(pemRepresentation: account.privateKeyPEM)) != nil else {
            throw ConfigurationError("--fcm-service-account: private_key is not an RSA private key in PEM")
        }
        guard let url = URLComponents(string: account.tokenURI), url.scheme == "https", url.host?.isEmpty == false
        else { throw ConfigurationError("--fcm-service-account: token_uri is not an https URL") }
        return .set(account)
    }

    /// Apple's key ids and team ids: ten uppercase letters or digits.
    private static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10 && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// A bundle id (an APNs topic): letters, digits, `-` and `.`, not beginning or ending with a dot, at most 255.
    private static func isBundleID(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        return (1...255).contains(scalars.count) && scalars.first != "." && scalars.last != "."
            && scalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "."
            }
    }
}
