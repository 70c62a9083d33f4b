/// What storing a new passkey can meet besides success.
package enum PasskeyInsertion: Sendable, Equatable {
    case stored
    /// The credential ID is registered already (to anyone).
    case credentialExists
    /// A first-credential-only ceremony, but the user has a device or a passkey by now.
    case notFirstCredential
}
