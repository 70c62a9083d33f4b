extension Migration {
    /// Hardware key attestation: what a device's attestation proved, and the builds an app accepts.
    static let keyAttestation = Migration(
        version: 7,
        name: "key_attestation",
        statements: [
            // Hardware key attestation: what a device's attestation proved, its App Attest key and receipt, and
            // the builds whose attestations an app accepts (JSON; NULL for none).
            "ALTER TABLE devices ADD COLUMN attestation TEXT",
            "ALTER TABLE devices ADD COLUMN app_attest_key_id TEXT",
            "ALTER TABLE devices ADD COLUMN app_attest_public_key TEXT",
            "ALTER TABLE devices ADD COLUMN app_attest_receipt TEXT",
            "ALTER TABLE apps ADD COLUMN attested_apps TEXT",
        ]
    )
}
