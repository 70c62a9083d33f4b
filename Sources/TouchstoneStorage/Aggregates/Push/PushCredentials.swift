import Foundation

/// An app's credentials for the push services: either, both or neither.
package struct PushCredentials: Sendable, Equatable, Codable {
    package var apns: APNsCredentials?
    package var fcm: FCMServiceAccount?

    package init(apns: APNsCredentials? = nil, fcm: FCMServiceAccount? = nil) {
        self.apns = apns
        self.fcm = fcm
    }
}

/// An APNs token-signing key (a PKCS#8 P-256 `.p8`), its key id, the team and the bundle ids it may push to.
package struct APNsCredentials: Sendable, Equatable, Codable {
    /// The `.p8` file's PEM text.
    package var keyPEM: String
    package var keyId: String
    package var teamId: String
    /// The bundle ids (`apns-topic`) devices may register for.
    package var topics: [String]

    package init(keyPEM: String, keyId: String, teamId: String, topics: [String]) {
        self.keyPEM = keyPEM
        self.keyId = keyId
        self.teamId = teamId
        self.topics = topics
    }
}

/// The fields of a Google service-account JSON that FCM HTTP v1 needs.
package struct FCMServiceAccount: Sendable, Equatable, Codable {
    package var projectId: String
    package var clientEmail: String
    package var privateKeyId: String
    /// The PKCS#8 RSA key's PEM text.
    package var privateKeyPEM: String
    /// Where the JWT-bearer grant is sent (`https://oauth2.googleapis.com/token` for Google's accounts).
    package var tokenURI: String

    package init(projectId: String, clientEmail: String, privateKeyId: String, privateKeyPEM: String, tokenURI: String) {
        self.projectId = projectId
        self.clientEmail = clientEmail
        self.privateKeyId = privateKeyId
        self.privateKeyPEM = privateKeyPEM
        self.tokenURI = tokenURI
    }

    /// The service-account JSON's names.
    private enum CodingKeys: String, CodingKey {
        case projectId = "project_id", clientEmail = "client_email", privateKeyId = "private_key_id"
        case privateKeyPEM = "private_key", tokenURI = "token_uri"
    }
}

/// What an update does to one provider's credentials.
package enum PushCredentialChange<Credentials: Sendable & Codable>: Sendable {
    /// Leaves them as they are.
    case keep
    case set(Credentials)
    case remove
}
