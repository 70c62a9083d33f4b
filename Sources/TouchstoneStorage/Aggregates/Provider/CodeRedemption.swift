/// What redeeming an authorization code did.
package enum CodeRedemption: Sendable, Equatable {
    /// The code was spent and the session stored.
    case redeemed
    /// The code had been used: the session its first use made is ended.
    case reused
    /// The provider session behind the code ended meanwhile (logout): nothing stored.
    case providerSessionEnded
}
