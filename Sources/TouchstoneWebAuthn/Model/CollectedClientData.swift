import Foundation

/// The client data a browser collected and signed over (WebAuthn §5.8.1), parsed from clientDataJSON as JSON.
///
/// Members beyond these are allowed and ignored (browsers add some, for example `extraData` or `other_keys_can_be_added_here`);
/// the bytes are never compared against a template.
public struct CollectedClientData: Sendable, Hashable, Decodable {
    /// `webauthn.create` or `webauthn.get`.
    public let type: String
    /// The ceremony's challenge, base64url-encoded.
    public let challenge: String
    /// The origin of the page that called the API, as the browser serializes it.
    public let origin: String
    /// True when the caller was in an iframe that is not same-origin with its ancestors.
    public let crossOrigin: Bool?
    /// The top-level origin, present for cross-origin calls.
    public let topOrigin: String?

    /// Decodes clientDataJSON: UTF-8 (a leading byte-order mark is stripped), then JSON.
    /// - Throws: ``WebAuthnError`` with code `malformed_client_data`.
    public init(json bytes: [UInt8]) throws(WebAuthnError) {
        var utf8 = bytes[...]
        if utf8.starts(with: [0xef, 0xbb, 0xbf]) { utf8 = utf8.dropFirst(3) }
        guard String(decoding: utf8, as: UTF8.self).utf8.elementsEqual(utf8) else {
            throw WebAuthnError(.malformedClientData, "clientDataJSON is not UTF-8")
        }
        do {
            self = try JSONDecoder().decode(CollectedClientData.self, from: Data(utf8))
        } catch {
            throw WebAuthnError(.malformedClientData, "clientDataJSON: \(error)")
        }
    }
}
