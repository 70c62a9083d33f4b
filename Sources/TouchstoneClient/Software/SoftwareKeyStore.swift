import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TouchstoneCrypto
import TouchstoneProtocol
import _CryptoExtras

/// Keys, registration and sessions in a directory (mode 0700, files 0600), for Linux and tests.
///
/// ⚠️ Keys here are protected by file permissions only; a biometric key kept here is only as strong as the
/// verifier that gates it. Secure hardware (Apple's Secure Enclave) is stronger.
public actor SoftwareKeyStore: KeyStore {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public func registration() async throws -> Registration? {
        guard let data = try read("registration.json") else { return nil }
        let stored = try JSONDecoder().decode(StoredRegistration.self, from: data)
        return Registration(
            server: stored.server, deviceId: stored.deviceId, userId: stored.userId, username: stored.username,
            deviceKey: try await stored.deviceKey.key(), biometricKey: try await stored.biometricKey?.key())
    }

    public func makeDeviceKey() async throws -> any DeviceKey {
        try await DeviceSigningKey.generateP256()
    }

    public func makeBiometricKey() async throws -> any DeviceKey {
        try await DeviceSigningKey.generateP256()
    }

    public func save(_ registration: Registration) async throws {
        let stored = StoredRegistration(
            server: registration.server, deviceId: registration.deviceId, userId: registration.userId,
            username: registration.username, deviceKey: try StoredKey(registration.deviceKey),
            biometricKey: try registration.biometricKey.map(StoredKey.init))
        try removeSessions()
        try write("registration.json", try JSONEncoder().encode(stored))
    }

    public func removeBiometricKey() async throws {
        guard let data = try read("registration.json") else { return }
        var stored = try JSONDecoder().decode(StoredRegistration.self, from: data)
        stored.biometricKey = nil
        try write("registration.json", try JSONEncoder().encode(stored))
    }

    public func wipe() async throws {
        try removeSessions()
        let file = directory.appending(path: "registration.json")
        if FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
    }

    public func session(clientId: String) async throws -> StoredSession? {
        try read(Self.sessionFile(clientId)).map { try WireCoding.decoder().decode(StoredSession.self, from: $0) }
    }

    public func setSession(_ session: StoredSession?, clientId: String) async throws {
        if let session {
            try write(Self.sessionFile(clientId), try WireCoding.encoder().encode(session))
        } else {
            let file = directory.appending(path: Self.sessionFile(clientId))
            if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.removeItem(at: file)
            }
        }
    }

    /// The vendor id of this profile: random, made once, kept with the keys.
    func vendorId() throws -> String {
        if let data = try read("vendor-id"), let id = String(data: data, encoding: .utf8), !id.isEmpty {
            return id
        }
        let id = UUID().uuidString
        try write("vendor-id", Data(id.utf8))
        return id
    }

    private static func sessionFile(_ clientId: String) -> String {
        "session-" + Base64URL.encode(Array(clientId.utf8)) + ".json"
    }

    private func removeSessions() throws {
        guard FileManager.default.fileExists(atPath: directory.path) else { return }
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix("session-") {
            try FileManager.default.removeItem(at: directory.appending(path: name))
        }
    }

    private func read(_ name: String) throws -> Data? {
        let file = directory.appending(path: name)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try Data(contentsOf: file)
    }

    /// Writes a file with mode 0600 atomically (a temporary file renamed over it), in a 0700 directory.
    private func write(_ name: String, _ data: Data) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        let temporary = directory.appending(path: ".\(name).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw TouchstoneError(.transport, "cannot write \(temporary.path)")
        }
        guard rename(temporary.path, directory.appending(path: name).path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw TouchstoneError(.transport, "cannot write \(directory.appending(path: name).path)")
        }
    }
}

/// A registration as the software key store writes it.
private struct StoredRegistration: Codable {
    var server: String
    var deviceId: String
    var userId: String
    var username: String
    var deviceKey: StoredKey
    var biometricKey: StoredKey?
}

/// A private key as the software key store writes it: its type and raw (or DER, for RSA) bytes, base64url.
private struct StoredKey: Codable {
    var type: String
    var material: String

    init(_ key: any DeviceKey) throws {
        guard let key = key as? DeviceSigningKey else {
            throw TouchstoneError(.transport, "the software key store keeps software keys only")
        }
        switch key.material {
        case .p256(let privateKey): (type, material) = ("p256", Base64URL.encode(privateKey.rawRepresentation))
        case .ed25519(let privateKey): (type, material) = ("ed25519", Base64URL.encode(privateKey.rawRepresentation))
        case .rsa(let privateKey): (type, material) = ("rsa", Base64URL.encode(privateKey.derRepresentation))
        }
    }

    func key() async throws -> DeviceSigningKey {
        guard let bytes = Base64URL.decode(material) else { throw TouchstoneError(.notRegistered, "a stored key is damaged") }
        switch type {
        case "p256": return try await DeviceSigningKey(.p256(try P256.Signing.PrivateKey(rawRepresentation: bytes)))
        case "ed25519": return try await DeviceSigningKey(.ed25519(try Curve25519.Signing.PrivateKey(rawRepresentation: bytes)))
        case "rsa": return try await DeviceSigningKey(.rsa(try _RSA.Signing.PrivateKey(derRepresentation: bytes)))
        default: throw TouchstoneError(.notRegistered, "a stored key has an unknown type")
        }
    }
}
