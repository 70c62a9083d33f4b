import Foundation

/// What ``Passkeys/finishAuthentication(response:state:credential:now:)`` needs to know about an authentication it
/// started.
///
/// Opaque and `Codable` so that the server can keep it until the response arrives.
/// - ⚠️ Store it server-side and use it once: never send it to the client.
public struct AuthenticationState: Sendable, Hashable, Codable {
    let relyingPartyID: String
    let challenge: Base64URLBytes
    let requiresUserVerification: Bool
    let allowedCredentialIDs: [Base64URLBytes]
    let identifiedUser: Base64URLBytes?
    /// When the ceremony expires; a store may drop the state from then on.
    public let expiresAt: Date
}
