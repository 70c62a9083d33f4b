import Foundation
import TouchstoneProtocol

/// An app as the admin API shows it (`GET|POST|PATCH /admin/v1/apps…`): its OpenID Connect registration, if any
/// (`name` is the client id, the URI lists empty, `confidential` false when it is not a client), and its policy.
package struct AdminApp: Sendable, Codable, Equatable {
    package var clientId: String
    package var publisher: String
    package var name: String
    package var redirectUris: [String]
    package var postLogoutRedirectUris: [String]
    /// Whether the client authenticates (with a secret or its keys).
    package var confidential: Bool
    package var policy: AppPolicy
    /// A new client secret, in the answer that made it only.
    package var clientSecret: String?
}

/// The members of an app's policy an administrator sets, named as in `GET /v1/apps/{clientId}/policy`; an absent
/// member keeps the value it had (the default, for a new app).
package struct AdminPolicyInput: Sendable, Codable, Equatable {
    package var biometricAllowed: Bool?
    package var pinRequired: Bool?
    package var maxPinAttempts: Int?
    package var inactivityTimeoutSeconds: Int?
    package var privilegedWindowSeconds: Int?
    package var refuseCompromisedDevices: Bool?
    package var attestation: AttestationRequirement?

    package init(
        biometricAllowed: Bool? = nil, pinRequired: Bool? = nil, maxPinAttempts: Int? = nil,
        inactivityTimeoutSeconds: Int? = nil, privilegedWindowSeconds: Int? = nil, refuseCompromisedDevices: Bool? = nil,
        attestation: AttestationRequirement? = nil
    ) {
        self.biometricAllowed = biometricAllowed
        self.pinRequired = pinRequired
        self.maxPinAttempts = maxPinAttempts
        self.inactivityTimeoutSeconds = inactivityTimeoutSeconds
        self.privilegedWindowSeconds = privilegedWindowSeconds
        self.refuseCompromisedDevices = refuseCompromisedDevices
        self.attestation = attestation
    }

    /// `policy` with the members given here.
    func applied(to policy: AppPolicy) -> AppPolicy {
        var policy = policy
        policy.biometricAllowed = biometricAllowed ?? policy.biometricAllowed
        policy.pinRequired = pinRequired ?? policy.pinRequired
        policy.maxPinAttempts = maxPinAttempts ?? policy.maxPinAttempts
        policy.inactivityTimeoutSeconds = inactivityTimeoutSeconds ?? policy.inactivityTimeoutSeconds
        policy.privilegedWindowSeconds = privilegedWindowSeconds ?? policy.privilegedWindowSeconds
        policy.refuseCompromisedDevices = refuseCompromisedDevices ?? policy.refuseCompromisedDevices
        policy.attestation = attestation ?? policy.attestation
        return policy
    }
}

/// `POST /admin/v1/apps`: a new app; with `redirectUris` an OpenID Connect client too (confidential with
/// `clientSecret: true`).
package struct AdminAppInput: Sendable, Codable, Equatable {
    package var clientId: String
    package var publisher: String
    package var name: String?
    package var redirectUris: [String]?
    package var postLogoutRedirectUris: [String]?
    /// `true` makes a confidential client, whose new secret the answer carries once.
    package var clientSecret: Bool?
    /// `RS256` (the default) or `ES256`.
    package var idTokenAlg: String?
    package var policy: AdminPolicyInput?

    package init(
        clientId: String, publisher: String, name: String? = nil, redirectUris: [String]? = nil,
        postLogoutRedirectUris: [String]? = nil, clientSecret: Bool? = nil, idTokenAlg: String? = nil,
        policy: AdminPolicyInput? = nil
    ) {
        self.clientId = clientId
        self.publisher = publisher
        self.name = name
        self.redirectUris = redirectUris
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.clientSecret = clientSecret
        self.idTokenAlg = idTokenAlg
        self.policy = policy
    }
}

/// `PATCH /admin/v1/apps/{clientId}`: the members to change; an absent member keeps its value.
package struct AdminAppChanges: Sendable, Codable, Equatable {
    package var name: String?
    package var redirectUris: [String]?
    package var postLogoutRedirectUris: [String]?
    package var idTokenAlg: String?
    package var policy: AdminPolicyInput?

    package init(
        name: String? = nil, redirectUris: [String]? = nil, postLogoutRedirectUris: [String]? = nil,
        idTokenAlg: String? = nil, policy: AdminPolicyInput? = nil
    ) {
        self.name = name
        self.redirectUris = redirectUris
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.idTokenAlg = idTokenAlg
        self.policy = policy
    }
}

/// `POST /admin/v1/apps/{clientId}/secret`: the client's new secret, shown once.
package struct AdminClientSecret: Sendable, Codable, Equatable {
    package var clientSecret: String
}

/// An app's API key as the admin API lists it: never the key.
package struct AdminAPIKey: Sendable, Codable, Equatable {
    package var keyId: String
    package var createdAt: Date
}

/// `GET /admin/v1/apps/{clientId}/api-keys`: the app's unrevoked keys.
package struct AdminAPIKeyList: Sendable, Codable, Equatable {
    package var apiKeys: [AdminAPIKey]
}

/// A new API key, shown once.
package struct CreatedAPIKey: Sendable, Codable, Equatable {
    package var keyId: String
    /// `tsk_…`; shown only now.
    package var apiKey: String
}

/// An API key as `admin api-key list` shows it, of any app, revoked or not.
package struct APIKeyView: Sendable, Codable, Equatable {
    package var id: String
    package var clientId: String
    package var createdAt: Date
    package var revokedAt: Date?
}

/// An app's push providers as `admin app list` shows them: ids and topics, never a key.
package struct PushSetupView: Sendable, Codable, Equatable {
    package struct APNs: Sendable, Codable, Equatable {
        package var keyId: String
        package var teamId: String
        package var topics: [String]
    }

    package struct FCM: Sendable, Codable, Equatable {
        package var projectId: String
        package var clientEmail: String
    }

    package var apns: APNs?
    package var fcm: FCM?
}
