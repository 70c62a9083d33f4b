import Foundation

/// `POST /v1/enrollments` answer: the challenge every new key signs in its proof.
public struct EnrollmentStarted: Codable, Sendable {
    public var enrollmentId: String
    public var challenge: String
    public var expiresAt: Date

    public init(enrollmentId: String, challenge: String, expiresAt: Date) {
        self.enrollmentId = enrollmentId
        self.challenge = challenge
        self.expiresAt = expiresAt
    }
}

/// The device as its platform reports it; `vendorId`, `model` and `name` make the device fingerprint.
public struct DeviceDescription: Codable, Sendable, Equatable {
    public var name: String
    public var model: String
    public var vendorId: String
    public var os: String
    public var compromised: Bool

    public init(name: String, model: String, vendorId: String, os: String, compromised: Bool) {
        self.name = name
        self.model = model
        self.vendorId = vendorId
        self.os = os
        self.compromised = compromised
    }
}

/// `POST /v1/enrollments/{enrollmentId}/complete` body.
public struct EnrollmentCompletion: Codable, Sendable {
    public var device: DeviceDescription
    public var deviceKey: PublicJWK
    public var biometricKey: PublicJWK?
    public var pin: String?
    public var deviceProof: String
    public var biometricProof: String?
    /// When this device replaces an active device of the user with the same fingerprint: a `touchstone-proof+jwt`
    /// over this enrolment's challenge signed by that device's device key. Without it the enrolment is a new device.
    public var previousDeviceProof: String?
    /// The platform's attestation of the new keys (PROTOCOL "Hardware key attestation"); `nil` when the device sends
    /// none.
    public var attestation: EnrollmentAttestation?

    public init(
        device: DeviceDescription, deviceKey: PublicJWK, biometricKey: PublicJWK?, pin: String?,
        deviceProof: String, biometricProof: String?, previousDeviceProof: String? = nil,
        attestation: EnrollmentAttestation? = nil
    ) {
        self.device = device
        self.deviceKey = deviceKey
        self.biometricKey = biometricKey
        self.pin = pin
        self.deviceProof = deviceProof
        self.biometricProof = biometricProof
        self.previousDeviceProof = previousDeviceProof
        self.attestation = attestation
    }
}

/// `POST /v1/enrollments/{enrollmentId}/complete` answer 201.
public struct EnrollmentCompleted: Codable, Sendable {
    public var deviceId: String
    public var session: Session

    public init(deviceId: String, session: Session) {
        self.deviceId = deviceId
        self.session = session
    }
}

/// `POST /v1/enrollments/{enrollmentId}/complete` answer 202: the enrolment waits for approval from another device.
public struct EnrollmentPending: Codable, Sendable {
    public var enrollmentId: String
    public var status: EnrollmentStatus
    public var pollSecret: String
    public var expiresAt: Date
    /// The number this device shows; the approving device must pick it among three (number matching).
    public var number: Int

    public init(enrollmentId: String, pollSecret: String, expiresAt: Date, number: Int) {
        self.enrollmentId = enrollmentId
        self.status = .approvalPending
        self.pollSecret = pollSecret
        self.expiresAt = expiresAt
        self.number = number
    }
}

/// The state of an enrolment as its poll reports it.
public struct EnrollmentStatus: RawRepresentable, Codable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let approvalPending = Self(rawValue: "approval_pending")
    public static let pending = Self(rawValue: "pending")
    public static let approved = Self(rawValue: "approved")
    public static let denied = Self(rawValue: "denied")
    public static let expired = Self(rawValue: "expired")
}

/// `GET /v1/enrollments/{enrollmentId}` answer.
public struct EnrollmentPoll: Codable, Sendable {
    public var status: EnrollmentStatus
    public var deviceId: String?
    public var session: Session?

    public init(status: EnrollmentStatus, deviceId: String? = nil, session: Session? = nil) {
        self.status = status
        self.deviceId = deviceId
        self.session = session
    }
}
