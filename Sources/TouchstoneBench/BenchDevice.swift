import Crypto
import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

/// An enrolled device as the load generator drives it: it signs biometric login assertions with swift-crypto
/// directly (no JWT library, no Codable), so that the client's share of the two cores stays small.
public struct BenchDevice: Sendable {
    public let deviceId: String
    let key: P256.Signing.PrivateKey
    /// base64url of `{"alg":"ES256","kid":…,"typ":"touchstone-assertion+jwt"}` and the `.` after it.
    private let encodedHeader: [UInt8]
    private let fingerprint: String

    init(deviceId: String, key: P256.Signing.PrivateKey, fingerprint: String) {
        self.deviceId = deviceId
        self.key = key
        self.fingerprint = fingerprint
        let kid = Thumbprint.of(BenchCredentials.jwk(key.publicKey))
        let header = #"{"alg":"ES256","kid":\#(JSONText.string(kid)),"typ":"touchstone-assertion+jwt"}"#
        encodedHeader = Array((Base64URL.encode(Array(header.utf8)) + ".").utf8)
    }

    /// A `touchstone-assertion+jwt` answering `challenge`, valid for 60 s from `now`.
    /// - Parameter audience: the server's ISSUER.
    func assertion(challenge: String, audience: String, now: Date) throws -> String {
        let iat = Int64(now.timeIntervalSince1970.rounded(.down))
        let payload =
            #"{"aud":\#(JSONText.string(audience)),"dfp":\#(JSONText.string(fingerprint)),"exp":\#(iat + 60),"#
            + #""iat":\#(iat),"iss":\#(JSONText.string(deviceId)),"nonce":\#(JSONText.string(challenge))}"#
        let signingInput = encodedHeader + Array(Base64URL.encode(Array(payload.utf8)).utf8)
        let signature = try key.signature(for: signingInput)
        return String(decoding: signingInput, as: UTF8.self) + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// A `touchstone-proof+jwt` of `key` for an enrolment (over HTTP, `--server` mode).
    static func proof(
        key: P256.Signing.PrivateKey, enrollmentId: String, challenge: String, audience: String, now: Date
    ) throws -> String {
        let kid = Thumbprint.of(BenchCredentials.jwk(key.publicKey))
        let header = #"{"alg":"ES256","kid":\#(JSONText.string(kid)),"typ":"touchstone-proof+jwt"}"#
        let iat = Int64(now.timeIntervalSince1970.rounded(.down))
        let payload =
            #"{"aud":\#(JSONText.string(audience)),"exp":\#(iat + 60),"iat":\#(iat),"#
            + #""iss":\#(JSONText.string(enrollmentId)),"nonce":\#(JSONText.string(challenge))}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let signature = try key.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
