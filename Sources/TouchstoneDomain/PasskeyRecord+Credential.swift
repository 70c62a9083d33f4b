import Foundation
import TouchstoneStorage
import TouchstoneWebAuthn

extension PasskeyRecord {
    /// A new passkey of `userId` keeping `credential`.
    init(userId: String, name: String, credential: Credential, createdAt: Date) throws {
        self.init(
            credentialId: Base64URLBytes(credential.id).base64URL, userId: userId, name: name, credential: "",
            signCount: 0, backupEligible: false, backupState: false, aaguid: "", attestationFormat: "",
            createdAt: createdAt)
        try keep(credential)
    }

    /// The WebAuthn credential record it keeps.
    func webAuthnCredential() throws -> Credential {
        try JSONDecoder().decode(Credential.self, from: Data(credential.utf8))
    }

    /// Keeps `credential` (after a sign-in updated it), with the columns queries read.
    mutating func keep(_ credential: Credential) throws {
        self.credential = String(decoding: try JSONEncoder().encode(credential), as: UTF8.self)
        signCount = credential.signCount
        backupEligible = credential.backupEligible
        backupState = credential.backupState
        aaguid = Base64URLBytes(credential.aaguid).base64URL
        attestationFormat = credential.attestationFormat
    }
}
