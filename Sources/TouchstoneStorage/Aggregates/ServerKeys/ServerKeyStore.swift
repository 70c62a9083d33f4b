/// The server's signing keys and secrets. Every method is atomic on its own.
package protocol ServerKeyStore: Sendable {
    func serverKeys() async throws -> [ServerKeyRecord]
    /// Inserts the first key of its algorithm when there is none.
    func createFirstServerKey(_ key: ServerKeyRecord) async throws
    /// Inserts `next` and retires the keys of its algorithm active now at `next.activatesAt`.
    func rotateServerKey(next: ServerKeyRecord) async throws
    /// The server-wide secret `name`, created from `candidate` by the first caller.
    func serverSecret(name: String, creating candidate: String) async throws -> String
}
