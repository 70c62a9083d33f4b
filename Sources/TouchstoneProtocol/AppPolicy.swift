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

    public init(
        clientId: String, publisher: String, biometricAllowed: Bool = true, pinRequired: Bool = true,
        pinLength: PINLength = .init(min: 6, max: 8), maxPinAttempts: Int = 5, inactivityTimeoutSeconds: Int = 900,
        sessionMaxLifetimeSeconds: Int = 43_200, privilegedWindowSeconds: Int = 300,
        refuseCompromisedDevices: Bool = true, newDeviceApproval: Bool = true
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
    }
}
