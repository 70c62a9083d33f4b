import TouchstoneCrypto
import TouchstoneStorage

extension RecoveryStore {
    /// The digest of `code` if it is one of the user's unused recovery codes; each stored digest is compared in
    /// constant time, all of them every time.
    func unusedRecoveryCode(_ code: String, of userId: String) async throws -> String? {
        let digest = RecoveryCode.digest(code, userId: userId)
        var found = false
        for stored in try await unusedRecoveryCodeHashes(userId: userId) {
            found = SecretDigest.constantTimeEquals(stored, digest) || found
        }
        return found ? digest : nil
    }
}
