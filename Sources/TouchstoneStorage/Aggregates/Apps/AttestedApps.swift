/// The builds of an app whose attestations it accepts: Android packages with their signing certificates, Apple App
/// IDs, and whether App Attest's development environment counts.
package struct AttestedApps: Codable, Sendable, Equatable {
    /// The allowed package and signing-certificate pairs.
    package var android: [AttestedAndroidApp]
    /// The allowed Apple App IDs (`TEAMID.bundle.id`).
    package var appleAppIds: [String]
    /// Whether App Attest keys of the development environment are accepted (production always is).
    package var appleDevelopment: Bool

    package init(android: [AttestedAndroidApp] = [], appleAppIds: [String] = [], appleDevelopment: Bool = false) {
        self.android = android
        self.appleAppIds = appleAppIds
        self.appleDevelopment = appleDevelopment
    }
}
