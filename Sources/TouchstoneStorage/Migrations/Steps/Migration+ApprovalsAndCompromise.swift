extension Migration {
    /// Sessions that end with the device that approved them, a device's compromised mark, number matching for a new
    /// device's approval, and the digest of a confirmation's decision in place of the decision.
    static let approvalsAndCompromise = Migration(
        version: 4,
        name: "approvals_and_compromise",
        statements: [
            // Sessions a device approved (web logins) end with that device.
            "ALTER TABLE sessions ADD COLUMN approved_by TEXT",
            "CREATE INDEX sessions_approved_by ON sessions (approved_by)",
            // A device that ever reported being compromised, at enrolment or in an assertion.
            "ALTER TABLE devices ADD COLUMN compromised INTEGER NOT NULL DEFAULT 0",
            // Approval of a new device: when it was asked and decided, and its number matching.
            "ALTER TABLE enrollments ADD COLUMN parked_at BIGINT",
            "ALTER TABLE enrollments ADD COLUMN decided_at BIGINT",
            "ALTER TABLE enrollments ADD COLUMN approval_number INTEGER",
            "ALTER TABLE enrollments ADD COLUMN approval_numbers TEXT",
            "CREATE INDEX enrollments_user ON enrollments (user_id, state)",
            // A device's decision token may carry its PIN: only its digest is kept; relying services get a receipt
            // the server signs from the stored decision.
            "ALTER TABLE confirmations ADD COLUMN decision_digest TEXT",
            "ALTER TABLE confirmations DROP COLUMN decision",
        ]
    )
}
