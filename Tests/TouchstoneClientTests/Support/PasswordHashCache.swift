@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// bcrypt of the test password, computed once per process (cost 12 is deliberately slow).
actor PasswordHashCache {
    static let shared = PasswordHashCache()
    private var hashes: [String: String] = [:]

    func hash(_ password: String, with hasher: PasswordHasher) async throws -> String {
        if let hash = hashes[password] { return hash }
        let hash = try await hasher.hash(password)
        hashes[password] = hash
        return hash
    }
}
