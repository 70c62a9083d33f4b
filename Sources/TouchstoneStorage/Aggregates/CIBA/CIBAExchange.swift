/// What exchanging an approved CIBA request for tokens found.
package enum CIBAExchange: Sendable, Equatable {
    /// The session was stored, for this caller.
    case exchanged
    /// An earlier exchange took it.
    case alreadyExchanged
    /// The approving device is no longer active: no session.
    case approverInactive
}
