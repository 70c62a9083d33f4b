extension Migration {
    /// Payment details at sign-in (RFC 9396 at PAR and authorize): a web login started for a sign-in request that
    /// carries `authorization_details` keeps them, the `txn` its decision must carry, and the session its approval
    /// delivered; a code issued from that approval keeps them for the token response.
    static let paymentDetailsAtSignIn = Migration(
        version: 13,
        name: "payment_details_at_sign_in",
        statements: [
            "ALTER TABLE web_logins ADD COLUMN sign_in_request_id TEXT",
            "ALTER TABLE web_logins ADD COLUMN authorization_details TEXT",
            "ALTER TABLE web_logins ADD COLUMN txn TEXT",
            "ALTER TABLE web_logins ADD COLUMN session_id TEXT",
            "CREATE INDEX web_logins_sign_in_request ON web_logins (sign_in_request_id)",
            "ALTER TABLE authorization_codes ADD COLUMN authorization_details TEXT",
            "ALTER TABLE authorization_codes ADD COLUMN txn TEXT",
        ]
    )
}
