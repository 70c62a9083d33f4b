/// An inbox item's state: the decision, or `suppressed` for a request that is answered but never delivered.
package enum ItemStatus: String, Sendable {
    case pending, approved, denied, suppressed
}
