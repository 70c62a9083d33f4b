import Foundation

/// What ``Passkeys/finishRegistration(response:state:now:)`` needs to know about a registration it started.
///
/// Opaque and `Codable` so that the server can keep it until the response arrives.
/// - ⚠️ Store it server-side, bound to the session that started the ceremony, and use it once: never send it to
///   the client (a state in a cookie or token can be replayed).
public struct RegistrationState: Sendable, Hashable, Codable {
    let relyingPartyID: String
    let challenge: Base64URLBytes
    let userHandle: Base64URLBytes
    let requiresUserVerification: Bool
    let algorithms: [COSEAlgorithm]
    let excludedCredentialIDs: [Base64URLBytes]
    /// When the ceremony expires; a store may drop the state from then on.
    public let expiresAt: Date
}
