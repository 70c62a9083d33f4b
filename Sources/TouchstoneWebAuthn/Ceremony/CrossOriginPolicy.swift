/// Whether ceremonies may run in an iframe that is not same-origin with its ancestors (WebAuthn §7.1 steps 10–11,
/// §7.2 steps 13–14).
public enum CrossOriginPolicy: Sendable, Hashable {
    /// Refuse client data with `crossOrigin: true` or a `topOrigin` (the default).
    case refused
    /// Accept cross-origin use; a `topOrigin`, when the browser reports one, must be one of `topOrigins`
    /// (normalized like configured origins).
    case allowed(topOrigins: [String])
}
