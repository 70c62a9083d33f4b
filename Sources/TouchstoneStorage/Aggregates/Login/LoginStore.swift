/// The login transaction of a verified assertion. Every method is atomic on its own.
package protocol LoginStore: Sendable {
    /// What a login reads before it verifies the assertion, in one statement: the app of `clientId` and the device
    /// `deviceId` (each `nil` when there is none).
    func loginParties(clientId: String, deviceId: String?) async throws -> (app: AppRecord?, device: DeviceRecord?)

    /// In one transaction: consumes a verified login assertion's challenge (which spends the assertion) and applies
    /// the login's effect (see ``LoginCommit``), stopping at the first step that refuses; the steps before it stay written.
    func commitLogin(_ login: LoginCommit) async throws -> LoginCommit.Outcome
}
