/// Which apps and environments may attest keys for one Touchstone app.
public struct AppAttestPolicy: Sendable, Hashable {
    /// The App IDs (`TEAMID.bundle.id`) allowed.
    public let allowedAppIDs: [String]
    /// Whether keys attested in the development environment are accepted.
    public let allowsDevelopment: Bool

    /// A policy for the apps `allowedAppIDs`.
    ///
    /// ⚠️ Development keys come from builds anyone with the team's signing rights can make: allow them only for
    /// apps that need it.
    /// - Parameters:
    ///   - allowedAppIDs: each `TEAMID.bundle.id` allowed.
    ///   - allowsDevelopment: also accept the development environment (`appattestdevelop`); production is always
    ///     accepted.
    public init(allowedAppIDs: [String], allowsDevelopment: Bool = false) {
        self.allowedAppIDs = allowedAppIDs
        self.allowsDevelopment = allowsDevelopment
    }
}
