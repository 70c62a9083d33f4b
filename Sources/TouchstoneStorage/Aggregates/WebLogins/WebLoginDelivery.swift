/// What a poll for an approved web login found.
package enum WebLoginDelivery: Sendable, Equatable {
    /// The session was stored, for this caller.
    case delivered
    /// An earlier poll took it.
    case alreadyDelivered
    /// The approving device is no longer active: no session.
    case approverInactive
}
