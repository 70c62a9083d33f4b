#if canImport(LocalAuthentication)
import Foundation
import Security
import TouchstoneProtocol

/// Keys, registration and sessions in the keychain, shared by the apps of one keychain access group (single sign-on).
///
/// Every item is a generic password of one service in `accessGroup`, `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`,
/// in the data-protection keychain (on macOS too): never synchronised, never restored to another device. The device
/// key and the biometric key live in the Secure Enclave; the keychain holds only their `dataRepresentation` (handles
/// that only this device's Secure Enclave can use). The registration (server, device id, user id, username, whether
/// there is a biometric key) and each app's session are JSON items.
///
/// New keys are made in memory (``makeDeviceKey()``, ``makeBiometricKey()``) and written only by ``save(_:)``, so a
/// registration that fails or is cancelled leaves nothing behind.
///
/// - ⚠️ `accessGroup` must be in the `keychain-access-groups` entitlement of every app that uses it, with the team
///   id prefix (`TEAMID.com.example.shared`). Every app in the group shares one registration and can use its keys and
///   sessions: put only apps of one publisher in it.
/// - ⚠️ The items can be read only while the device is unlocked: calls made in the background on a locked device fail.
public actor KeychainKeyStore: KeyStore {
    /// The keychain access group the publisher's apps share.
    public let accessGroup: String
    /// The `kSecAttrService` of every item.
    public let service: String
    /// The verifier that authorises the biometric key's signatures.
    let verifier: LocalAuthenticationVerifier

    /// - Parameters:
    ///   - accessGroup: the shared keychain access group, team id included.
    ///   - service: the `kSecAttrService` of the items; change it only to keep two independent registrations.
    ///   - verifier: the verifier the platform uses, whose verifications authorise the biometric key.
    public init(accessGroup: String, service: String = "touchstone", verifier: LocalAuthenticationVerifier) {
        self.accessGroup = accessGroup
        self.service = service
        self.verifier = verifier
    }

    public func registration() async throws -> Registration? {
        guard let data = try read(Account.registration) else { return nil }
        guard let stored = try? JSONDecoder().decode(StoredRegistration.self, from: data) else {
            throw TouchstoneError(.notRegistered, "the registration in the keychain is damaged; register again")
        }
        guard let deviceKeyData = try read(Account.deviceKey) else {
            throw TouchstoneError(.notRegistered, "the device key is missing from the keychain; register again")
        }
        let deviceKey: SecureEnclaveKey
        do {
            deviceKey = try SecureEnclaveKey(dataRepresentation: deviceKeyData, authorizer: nil)
        } catch {
            throw TouchstoneError(.notRegistered, "the Secure Enclave no longer knows the device key; register again")
        }
        // A biometric key the Secure Enclave no longer accepts counts as none: the device logs in with its PIN.
        var biometricKey: SecureEnclaveKey?
        if stored.biometric, let biometricKeyData = try read(Account.biometricKey) {
            biometricKey = try? SecureEnclaveKey(dataRepresentation: biometricKeyData, authorizer: verifier)
        }
        return Registration(
            server: stored.server, deviceId: stored.deviceId, userId: stored.userId, username: stored.username,
            deviceKey: deviceKey, biometricKey: biometricKey)
    }

    /// Makes a Secure Enclave key with `.privateKeyUsage` only (no biometric); it is kept only by ``save(_:)``.
    /// - Throws: ``TouchstoneError`` `biometryNotAvailable` on a device without a Secure Enclave.
    public func makeDeviceKey() async throws -> any DeviceKey {
        try SecureEnclaveKey.generate(authorizer: nil)
    }

    /// Makes a Secure Enclave key with `.privateKeyUsage` and `.biometryCurrentSet`; it is kept only by ``save(_:)``.
    /// - Throws: ``TouchstoneError`` `biometryNotAvailable` on a device without a Secure Enclave.
    public func makeBiometricKey() async throws -> any DeviceKey {
        try SecureEnclaveKey.generate(authorizer: verifier)
    }

    /// Keeps a registration and its keys, replacing any earlier one and every session.
    /// - Throws: ``TouchstoneError`` when a key was not made by this store, or the keychain refuses.
    public func save(_ registration: Registration) async throws {
        guard let deviceKey = registration.deviceKey as? SecureEnclaveKey, !deviceKey.requiresBiometry else {
            throw TouchstoneError(.transport, "the keychain key store keeps device keys made by makeDeviceKey() only")
        }
        var biometricKey: SecureEnclaveKey?
        if let key = registration.biometricKey {
            guard let key = key as? SecureEnclaveKey, key.requiresBiometry else {
                throw TouchstoneError(.transport, "the keychain key store keeps biometric keys made by makeBiometricKey() only")
            }
            biometricKey = key
        }
        let metadata = try JSONEncoder().encode(
            StoredRegistration(
                server: registration.server, deviceId: registration.deviceId, userId: registration.userId,
                username: registration.username, biometric: biometricKey != nil))
        // The registration item goes first and comes back last: an interrupted save leaves no registration.
        try delete(Account.registration)
        try removeSessions()
        try write(Account.deviceKey, deviceKey.dataRepresentation)
        if let biometricKey {
            try write(Account.biometricKey, biometricKey.dataRepresentation)
        } else {
            try delete(Account.biometricKey)
        }
        try write(Account.registration, metadata)
    }

    public func removeBiometricKey() async throws {
        if let data = try read(Account.registration),
            var stored = try? JSONDecoder().decode(StoredRegistration.self, from: data)
        {
            stored.biometric = false
            try write(Account.registration, try JSONEncoder().encode(stored))
        }
        try delete(Account.biometricKey)
    }

    public func wipe() async throws {
        try delete(Account.registration)
        try delete(Account.deviceKey)
        try delete(Account.biometricKey)
        try removeSessions()
    }

    public func session(clientId: String) async throws -> StoredSession? {
        guard let data = try read(Account.session(clientId)) else { return nil }
        return try? WireCoding.decoder().decode(StoredSession.self, from: data)
    }

    public func setSession(_ session: StoredSession?, clientId: String) async throws {
        if let session {
            try write(Account.session(clientId), try WireCoding.encoder().encode(session))
        } else {
            try delete(Account.session(clientId))
        }
    }

    /// The vendor id of this device for the publisher's apps (on macOS, which has no `identifierForVendor`): random,
    /// made once, kept in the access group; a wipe keeps it.
    func vendorId() throws -> String {
        if let data = try read(Account.vendorId), let id = String(data: data, encoding: .utf8), !id.isEmpty {
            return id
        }
        let id = UUID().uuidString
        try write(Account.vendorId, Data(id.utf8))
        return id
    }

    // MARK: Keychain items

    private enum Account {
        static let registration = "registration"
        static let deviceKey = "device-key"
        static let biometricKey = "biometric-key"
        static let vendorId = "vendor-id"
        static let sessionPrefix = "session:"

        static func session(_ clientId: String) -> String { sessionPrefix + clientId }
    }

    /// The attributes that name one item of this store (or, with `account` nil, all of them).
    private func itemQuery(_ account: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccessGroup as String: accessGroup,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let account { query[kSecAttrAccount as String] = account }
        return query
    }

    private func read(_ account: String) throws -> Data? {
        var query = itemQuery(account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Self.failure(status, "read \(account)") }
        return data
    }

    /// Replaces the item's data, or adds the item (`WhenUnlockedThisDeviceOnly`).
    private func write(_ account: String, _ data: Data) throws {
        let changes: [String: Any] = [kSecValueData as String: data]
        var status = SecItemUpdate(itemQuery(account) as CFDictionary, changes as CFDictionary)
        if status == errSecItemNotFound {
            var item = itemQuery(account)
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw Self.failure(status, "write \(account)") }
    }

    private func delete(_ account: String) throws {
        let status = SecItemDelete(itemQuery(account) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure(status, "delete \(account)") }
    }

    /// Deletes every app's session, one item at a time (the macOS keychain may delete only the first match).
    private func removeSessions() throws {
        var query = itemQuery(nil)
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return }
        guard status == errSecSuccess else { throw Self.failure(status, "list the sessions") }
        let items = result as? [[String: Any]] ?? []
        for account in items.compactMap({ $0[kSecAttrAccount as String] as? String })
        where account.hasPrefix(Account.sessionPrefix) {
            try delete(account)
        }
    }

    private static func failure(_ status: OSStatus, _ action: String) -> TouchstoneError {
        let reason: String
        switch status {
        case errSecMissingEntitlement:
            reason = "the access group is not in the app's keychain-access-groups entitlement"
        case errSecInteractionNotAllowed:
            reason = "the device is locked"
        default:
            reason = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
        }
        return TouchstoneError(.transport, "keychain: cannot \(action): \(reason)")
    }
}

/// A registration as the keychain key store writes it; the keys are separate items.
private struct StoredRegistration: Codable {
    var server: String
    var deviceId: String
    var userId: String
    var username: String
    var biometric: Bool
}
#endif
