/// The protocol's own HTTP header names.
public enum TouchstoneHeader {
    /// On every v1 call with a device session's access token: a `touchstone-request+jwt` of that call, signed by
    /// the device key that the token's `cnf.jkt` names.
    public static let deviceProof = "Touchstone-Device-Proof"
    /// The secret of a pending enrolment or web login, on its polls.
    public static let pollSecret = "X-Poll-Secret"
}
