/// An attestation object (WebAuthn §6.5.4): the format, the statement and the authenticator data.
public struct AttestationObject: Sendable {
    /// The attestation statement format identifier, as received.
    public let format: String
    /// The attestation statement, a map the format's verification procedure interprets.
    public let statement: CBORMap
    /// The authenticator data.
    public let authenticatorData: AuthenticatorData

    /// Decodes an attestation object: strict CTAP2 canonical CBOR, a map holding at least `fmt` (text), `attStmt`
    /// (map) and `authData` (bytes) (§6.5.2: "at least the three keys"; other members are ignored).
    /// - Throws: ``WebAuthnError`` with code `malformed_attestation_object`, or the authenticator data's codes.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        func fail(_ detail: String) -> WebAuthnError { WebAuthnError(.malformedAttestationObject, detail) }
        let value: CBORValue
        do {
            value = try CBORDecoder().decode(bytes)
        } catch {
            throw fail("\(error)")
        }
        guard let map = value.map,
            let format = map[text: "fmt"]?.text,
            let statement = map[text: "attStmt"]?.map,
            let authData = map[text: "authData"]?.bytes
        else {
            throw fail("expected fmt (text), attStmt (map) and authData (bytes)")
        }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(bytes: authData)
    }
}
