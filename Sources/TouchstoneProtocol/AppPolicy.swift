/// An app's login policy, as `GET /v1/apps/{clientId}/policy` publishes it.
public struct AppPolicy: Codable, Sendable, Equatable {
    public struct PINLength: Codable, Sendable, Equatable {
        public var min: Int
        public var max: Int

        public init(min: Int, max: Int) {
            self.min = min
            self.max = max
        }
    }

    public var clientId: String
    public var publisher: String
    public var biometricAllowed: Bool
    public var pinRequired: Bool
    public var pinLength: PINLength
    public var maxPinAttempts: Int
    public var inactivityTimeoutSeconds: Int
    public var sessionMaxLifetimeSeconds: Int
    public var privilegedWindowSeconds: Int
    public var refuseCompromisedDevices: Bool
    public var newDeviceApproval: Bool
    /// Whether enrolments must carry a hardware key attestation; `none` when a stored policy predates it.
    public var attestation: AttestationRequirement

    public init(
        clientId: String, publisher: String, biometricAllowed: Bool = true, pinRequired: Bool = true,
        pinLength: PINLength = .init(min: 6, max: 8), maxPinAttempts: Int = 5, inactivityTimeoutSeconds: Int = 900,
        sessionMaxLifetimeSeconds: Int = 43_200, privilegedWindowSeconds: Int = 300,
        refuseCompromisedDevices: Bool = true, newDeviceApproval: Bool = true,
        attestation: AttestationRequirement = .none
    ) {
        self.clientId = clientId
        self.publisher = publisher
        self.biometricAllowed = biometricAllowed
        self.pinRequired = pinRequired
        self.pinLength = pinLength
        self.maxPinAttempts = maxPinAttempts
        self.inactivityTimeoutSeconds = inactivityTimeoutSeconds
        self.sessionMaxLifetimeSeconds = sessionMaxLifetimeSeconds
        self.privilegedWindowSeconds = privilegedWindowSeconds
        self.refuseCompromisedDevices = refuseCompromisedDevices
        self.newDeviceApproval = newDeviceApproval
        self.attestation = attestation
    }

    private enum CodingKeys: String, CodingKey {
        case clientId, publisher, biometricAllowed, pinRequired, pinLength, maxPinAttempts, inactivityTimeoutSeconds
        case sessionMaxLifetimeSeconds, privilegedWindowSeconds, refuseCompromisedDevices, newDeviceApproval
        case attestation
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientId = try container.decode(String.self, forKey: .clientId)
        publisher = try container.decode(String.self, forKey: .publisher)
        biometricAllowed = try container.decode(Bool.self, forKey: .biometricAllowed)
        pinRequired = try container.decode(Bool.self, forKey: .pinRequired)
        pinLength = try container.decode(PINLength.self, forKey: .pinLength)
        maxPinAttempts = try container.decode(Int.self, forKey: .maxPinAttempts)
        inactivityTimeoutSeconds = try container.decode(Int.self, forKey: .inactivityTimeoutSeconds)
        sessionMaxLifetimeSeconds = try container.decode(Int.self, forKey: .sessionMaxLifetimeSeconds)
        privilegedWindowSeconds = try container.decode(Int.self, forKey: .privilegedWindowSeconds)
        refuseCompromisedDevices = try container.decode(Bool.self, forKey: .refuseCompromisedDevices)
        newDeviceApproval = try container.decode(Bool.self, forKey: .newDeviceApproval)
        attestation = try container.decodeIfPresent(AttestationRequirement.self, forKey: .attestation) ?? .none
    }
}
