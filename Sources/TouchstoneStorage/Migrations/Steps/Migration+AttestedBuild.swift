extension Migration {
    /// The app build a device's attestation proved.
    static let attestedBuild = Migration(
        version: 9,
        name: "attested_build",
        statements: [
            // The app build a device's attestation proved (JSON; NULL without one, or from before this version):
            // every app the device acts for checks it against its own attested builds.
            "ALTER TABLE devices ADD COLUMN attested_build TEXT",
        ]
    )
}
